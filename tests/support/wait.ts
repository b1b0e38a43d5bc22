/** Polls fn until ok(value) or the time runs out; returns the last value (the caller asserts on it). */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000, every = 250): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * Polls a list of records until the one with `id` has ended (status 3, done, or 4, failed: the numbering of works and
 * of every paid task's records) or the time runs out; returns that record as last listed (undefined: never listed).
 */
export async function ended<R extends { id: number; status: number }>(list: () => Promise<R[]>, id: number, ms = 60_000, every = 250): Promise<R | undefined> {
  const find = (rows: R[]) => rows.find((r) => r.id === id);
  return find(await until(list, (rows) => [3, 4].includes(find(rows)?.status ?? 0), ms, every));
}
