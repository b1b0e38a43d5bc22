/**
 * Test processes keep an idle loopback connection one second, not until the server's keep-alive timeout (72 s,
 * Fastify's) is nearly up. A spec's event loop blocked around that moment (a synchronous ffmpeg, a busy machine)
 * sent its next request on a socket the server was closing ("other side closed": a journey failed so in CI).
 * Set for the global fetch of the spec's process: its clients and the product code it runs in process alike.
 */
import { Agent, setGlobalDispatcher } from 'undici';

const IDLE_MS = 1_000;

let set = false;

/** Once per process (the setup file runs before each spec file; their workers share one module graph). */
export function shortKeepAlive(): void {
  if (set) return;
  set = true;
  setGlobalDispatcher(new Agent({ keepAliveTimeout: IDLE_MS, keepAliveMaxTimeout: IDLE_MS }));
}
