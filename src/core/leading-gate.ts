/**
 * A leading-edge gate: the first call in any `ms` window passes, the rest are dropped (the spec's 1 s throttles
 * of the clone and submit buttons).
 */
export function leadingGate(ms: number, now: () => number = Date.now): () => boolean {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const t = now();
    if (t - last < ms) return false;
    last = t;
    return true;
  };
}
