import { describe, expect, it } from 'vitest';
import { workerScript } from './worker-script';

describe('workerScript', () => {
  it('runs a worker of the TypeScript sources through tsx, beside its caller', () => {
    expect(workerScript('./landmarks-worker.ts', 'file:///app/server/engines/lipsync/analyse.ts')).toEqual({
      filename: 'file:///app/server/engines/lipsync/landmarks-worker.ts',
      execArgv: ['--import', 'tsx'],
    });
  });

  it('runs the built script of a JavaScript build as it is', () => {
    expect(workerScript('./espeak-worker.ts', 'file:///build/server/engines/speech/offline/offline-engine.js')).toEqual({
      filename: 'file:///build/server/engines/speech/offline/espeak-worker.js',
      execArgv: [],
    });
  });
});
