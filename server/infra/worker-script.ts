/**
 * A worker thread's script, beside the module that starts it. The server runs from its TypeScript through tsx
 * (`npm start`), and a worker thread needs tsx's module hooks too; the test runs' server processes run a JavaScript
 * build of the same files (tests/support/server-build.ts), whose workers need none and load the built script.
 */
export function workerScript(relativeTs: string, callerUrl: string): { filename: string; execArgv: string[] } {
  const fromSource = callerUrl.endsWith('.ts');
  return {
    filename: new URL(fromSource ? relativeTs : relativeTs.replace(/\.ts$/, '.js'), callerUrl).href,
    execArgv: fromSource ? ['--import', 'tsx'] : [],
  };
}
