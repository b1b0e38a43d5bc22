/** Shared pieces of the engine specs (speech and lip-sync providers against their protocol peers). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { ffmpeg } from '../../server/infra/media-probe';
import { SpeechEngineError, type SpeechParams } from '../../server/engines/speech/speech-engine';

/** The product's default speech settings. */
export const PLAIN_SPEECH: SpeechParams = { rate: 1, volume: 1, pitch: 1, language: '', emotion: '' };

/** The error the call fails with, asserted to be of the engine's error class (a call that succeeds fails the test). */
export async function failureOf<E extends Error>(type: abstract new (...args: any[]) => E, promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(type);
    return err as E;
  }
  throw new Error('expected the call to fail');
}

/** A 330 Hz tone of this length as mp3 (a voice sample an engine accepts by length alone). */
export const toneMp3 = (file: string, seconds: number) =>
  ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=44100:duration=${seconds}`, '-c:a', 'libmp3lame', '-f', 'mp3', file]);

/** A scratch folder for one spec file, and its files by name. */
export function scratchDir(prefix: string): { dir: string; out: (name: string) => string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, out: (name) => path.join(dir, name), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A provider called with a wrong key: speaking and cloning each fail with its Chinese word about the key, and speaking is not retried. */
export async function expectKeyRefused(speak: () => Promise<unknown>, clone: () => Promise<unknown>): Promise<void> {
  const onTts = await failureOf(SpeechEngineError, speak());
  expect(onTts.message).toMatch(/密钥/);
  expect(onTts.transient).toBe(false);
  const onClone = await failureOf(SpeechEngineError, clone());
  expect(onClone.message).toMatch(/密钥/);
}

/** A provider slower than the channel's timeout: the call fails as 超时 and is worth retrying. */
export async function expectTimeoutTransient(speak: () => Promise<unknown>): Promise<void> {
  const err = await failureOf(SpeechEngineError, speak());
  expect(err.message).toMatch(/超时/);
  expect(err.transient).toBe(true);
}
