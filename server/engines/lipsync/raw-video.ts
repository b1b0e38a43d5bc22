/**
 * Raw frames in and out of ffmpeg through pipes, one frame at a time, so a render holds a handful of frames
 * whatever the video's length.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { FFMPEG, FfmpegError } from '../../infra/media-probe';

const BASE = ['-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'file,pipe'];

function failure(child: ChildProcess, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 || signal === 'SIGTERM' ? resolve() : reject(new FfmpegError(`ffmpeg failed (${code ?? signal}): ${stderr().trim().split('\n').slice(-3).join(' | ')}`)),
    );
  });
}

/** Decodes with ffmpeg (`args` end with the output options before `-f rawvideo pipe:1`) and yields whole frames of `frameBytes`. */
export async function* rawFrames(args: string[], frameBytes: number): AsyncGenerator<Buffer> {
  const child = spawn(FFMPEG, [...BASE, '-nostdin', ...args, '-f', 'rawvideo', 'pipe:1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const done = failure(child, () => err);
  done.catch(() => undefined); // awaited below; a consumer that stops early must not leave it unhandled
  let frame = Buffer.allocUnsafe(frameBytes);
  let filled = 0;
  try {
    for await (const chunk of child.stdout! as AsyncIterable<Buffer>) {
      let at = 0;
      while (at < chunk.length) {
        const n = Math.min(frameBytes - filled, chunk.length - at);
        chunk.copy(frame, filled, at, at + n);
        filled += n;
        at += n;
        if (filled === frameBytes) {
          yield frame;
          frame = Buffer.allocUnsafe(frameBytes);
          filled = 0;
        }
      }
    }
    await done;
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
}

/**
 * Pulls up to `depth` items ahead of the consumer, so the decoder works while the consumer does (a pipe alone
 * holds well under one frame).
 */
export async function* prefetch<T>(source: AsyncGenerator<T>, depth: number): AsyncGenerator<T> {
  const ahead: Promise<IteratorResult<T>>[] = [];
  try {
    for (;;) {
      while (ahead.length < depth) ahead.push(source.next());
      const next = await ahead.shift()!;
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await Promise.allSettled(ahead);
    await source.return(undefined);
  }
}

/** An ffmpeg fed raw frames on stdin; `write` waits once more than `buffered` bytes are queued for it. */
export class RawEncoder {
  private readonly child: ChildProcess;
  private readonly done: Promise<void>;
  private err = '';

  constructor(args: string[], private readonly buffered = 0) {
    this.child = spawn(FFMPEG, [...BASE, '-y', ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
    this.child.stderr!.on('data', (d: Buffer) => (this.err += d.toString()));
    this.child.stdin!.on('error', () => undefined); // an early exit is reported by `end`
    this.done = failure(this.child, () => this.err);
    this.done.catch(() => undefined);
  }

  async write(frame: Uint8Array): Promise<void> {
    if (this.child.exitCode !== null) return this.done;
    this.child.stdin!.write(frame);
    if (this.child.stdin!.writableLength > this.buffered) await new Promise<void>((resolve) => {
      const go = () => { this.child.stdin!.off('drain', go); this.child.off('close', go); resolve(); };
      this.child.stdin!.on('drain', go);
      this.child.on('close', go);
    });
  }

  end(): Promise<void> {
    this.child.stdin!.end();
    return this.done;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
