import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A fresh React root in the document for each test of the calling suite, unmounted and removed after it. */
export function reactHost(): { root: Root; host: HTMLDivElement } {
  const env = {} as { root: Root; host: HTMLDivElement };
  beforeEach(() => {
    env.host = document.createElement('div');
    document.body.appendChild(env.host);
    env.root = createRoot(env.host);
  });
  afterEach(() => {
    act(() => env.root.unmount());
    env.host.remove();
  });
  return env;
}
