// The media tool launcher (see tool-runner.ts): a small process that starts ffmpeg and ffprobe for the server. Starting
// a program forks the process that starts it, and a fork copies the page tables of all the memory it has touched: from
// the server (the embedded database in WebAssembly, the models) that blocked the event loop 30-50 ms per run, from
// this process (a bare Node, no loaders) about a tenth of it. Plain JavaScript, so it starts without the server's loaders.
import { spawn } from 'node:child_process';

/** The runs under way, killed if the server goes: a tool never outlives the process that asked for it. */
const running = new Set();

process.on('message', ({ id, file, args, options }) => {
  const { cwd, env, input, timeoutMs, maxBuffer, killSignal } = options;
  const reply = (result) => process.connected && process.send({ id, ...result });
  let child;
  try {
    child = spawn(file, args, { cwd, env, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  } catch (err) {
    reply({ code: null, signal: null, reason: String(err?.message ?? err), stdout: Buffer.alloc(0), stderr: '' });
    return;
  }
  running.add(child);
  const out = [];
  let outBytes = 0;
  let stderr = '';
  let reason;
  const stop = (why) => {
    reason ??= why;
    child.kill(killSignal);
  };
  const timer = timeoutMs > 0 ? setTimeout(() => stop(`timed out after ${timeoutMs} ms`), timeoutMs) : undefined;
  child.stdout.on('data', (chunk) => {
    outBytes += chunk.length;
    if (outBytes > maxBuffer) stop(`printed more than ${maxBuffer} bytes`);
    else out.push(chunk);
  });
  child.stderr.on('data', (chunk) => {
    if (stderr.length < maxBuffer) stderr += chunk.toString();
  });
  child.on('error', (err) => (reason ??= err.message));
  child.on('close', (code, signal) => {
    clearTimeout(timer);
    running.delete(child);
    reply({ code, signal, reason, stdout: Buffer.concat(out), stderr });
  });
  if (input) {
    child.stdin.on('error', () => undefined); // the tool may exit before reading everything; its exit code tells
    child.stdin.end(input);
  }
});

// The server is gone (stopped, or killed): so are its runs.
process.on('disconnect', () => {
  for (const child of running) child.kill('SIGKILL');
  process.exit(0);
});
