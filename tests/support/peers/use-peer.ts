/** A protocol peer for the tests of one spec file (or one describe): started before them, closed after them. */
import { afterAll, beforeAll } from 'vitest';

/**
 * Starts the peer in a beforeAll where it is called and closes it in an afterAll. What it returns stands for the
 * started peer: its fields, calls and knobs are that peer's, read or set inside tests and hooks (not while the file's
 * tests are being collected, when no peer is running yet).
 */
export function usePeer<P extends { close(): Promise<void> }>(start: () => Promise<P>): P {
  let peer: P | undefined;
  beforeAll(async () => {
    peer = await start();
  });
  afterAll(async () => {
    await peer?.close();
    peer = undefined;
  });
  const started = (): P => {
    if (!peer) throw new Error('a test peer was used outside the tests it was started for');
    return peer;
  };
  return new Proxy({} as P, {
    get: (_target, key) => Reflect.get(started(), key),
    set: (_target, key, value) => Reflect.set(started(), key, value),
  });
}
