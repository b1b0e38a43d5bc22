import path from 'node:path';

/** The repository's root: where the test helpers find the server's sources, the built app and node_modules. */
export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
