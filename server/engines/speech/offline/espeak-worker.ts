/**
 * Runs inside a worker thread (piscina), off the server's event loop: one espeak-ng run of the WASM build
 * per call. Setting up an instance costs ~0.4 s, so a whole script is one run (pauses as SSML breaks);
 * the compiled module is kept per thread.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import ESpeakNg from 'espeak-ng';

export interface EspeakTask {
  /** SSML: pauses are `<break time="…ms"/>`, so one run speaks a whole script. */
  ssml: string;
  /** espeak voice name with an optional variant: cmn, cmn+f3, en-us+m3… */
  voice: string;
  /** words per minute, 80–450 */
  speed: number;
  /** 0–99 */
  pitch: number;
}

const require = createRequire(import.meta.url);
let compiled: Promise<WebAssembly.Module> | undefined;
function wasmModule(): Promise<WebAssembly.Module> {
  compiled ??= WebAssembly.compile(fs.readFileSync(require.resolve('espeak-ng/dist/espeak-ng.wasm')));
  return compiled;
}

/** Answers the WAV file espeak wrote (22,050 Hz, mono, 16-bit). */
export default async function speak(task: EspeakTask): Promise<Uint8Array> {
  const module = await wasmModule();
  const errors: string[] = [];
  const instance = await ESpeakNg({
    // The text goes through a file, so a script that starts with '-' is never read as an option.
    arguments: ['-m', '-v', task.voice, '-s', String(task.speed), '-p', String(task.pitch), '-w', '/tmp/out.wav', '-f', '/tmp/in.txt'],
    preRun: [(m) => m.FS.writeFile('/tmp/in.txt', task.ssml)],
    print: () => undefined,
    printErr: (line) => errors.push(line),
    instantiateWasm: (imports, done) => {
      void WebAssembly.instantiate(module, imports).then(done);
      return {};
    },
  });
  let wav: Uint8Array;
  try {
    wav = instance.FS.readFile('/tmp/out.wav');
  } catch {
    throw new Error(`espeak-ng wrote no audio: ${errors.join(' | ') || 'no message'}`);
  }
  return wav;
}
