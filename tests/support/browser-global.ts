import { BROWSER_ENDPOINT_ENV, launchBrowserServer } from './browser';

/** One Chromium for every journey of the run (each file connects and opens its own contexts); closed at the end. */
export default async function setup() {
  const server = await launchBrowserServer();
  // The environment, like the PGlite template and the media cache: the workers inherit it.
  process.env[BROWSER_ENDPOINT_ENV] = server.wsEndpoint();
  return () => server.close();
}
