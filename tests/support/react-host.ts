import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, expect } from 'vitest';

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

/**
 * Checks a function against a table, one row a call: the row's arguments, then the answer it must give (`toEqual`).
 * `expectAnswers(formatDuration, [[5.4, '00:05'], [0, '']])`.
 */
export function expectAnswers<A extends unknown[], R>(fn: (...args: A) => R, rows: readonly (readonly [...A, R])[]): void {
  for (const row of rows) {
    const args = row.slice(0, -1) as A;
    expect(fn(...args), `${fn.name}(${args.map((a) => JSON.stringify(a)).join(', ')})`).toEqual(row[row.length - 1]);
  }
}
