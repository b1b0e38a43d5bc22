/**
 * Pause markers `<#s#>` survive a model's rewrite: before sending, each marker becomes a numbered placeholder
 * `{{P1}}`, `{{P2}}`, …; after, the placeholders become the markers again. A placeholder the model dropped is put
 * back where it was in the original (the same fraction of the text, snapped to the same preceding character or a
 * punctuation mark nearby); duplicates, out-of-order copies, unknown numbers and markers the model made up are
 * removed. The result carries exactly the original markers, in the original order — verified before it is returned.
 */
import { PAUSE_MARKER } from '../../../src/contract';

export const placeholder = (n: number) => `{{P${n}}}`;

/** Tolerant of what models do to `{{P1}}`: single or full-width braces, spaces, lower case. */
const PLACEHOLDER = /[{｛]{1,2}\s*[Pp]\s*(\d{1,4})\s*[}｝]{1,2}/g;

interface MarkerSite {
  /** The marker's exact text, e.g. `<#0.5#>`. */
  text: string;
  /** Offset in the original text without markers. */
  at: number;
  /** The character before it in that text ('' at the start). */
  before: string;
  spaceBefore: boolean;
  spaceAfter: boolean;
}

export interface ProtectedScript {
  /** What the model gets. */
  masked: string;
  sites: MarkerSite[];
  /** The original without markers (for proportional placement). */
  plainLength: number;
}

export function protectPauses(text: string): ProtectedScript {
  const sites: MarkerSite[] = [];
  let masked = '';
  let plain = '';
  let last = 0;
  for (const m of text.matchAll(PAUSE_MARKER)) {
    const chunk = text.slice(last, m.index);
    masked += chunk;
    plain += chunk;
    const after = text.charAt(m.index + m[0].length);
    sites.push({ text: m[0], at: plain.length, before: plain.slice(-1), spaceBefore: /[ \t]$/.test(plain), spaceAfter: after === ' ' || after === '\t' });
    masked += placeholder(sites.length);
    last = m.index + m[0].length;
  }
  masked += text.slice(last);
  plain += text.slice(last);
  return { masked, sites, plainLength: plain.length };
}

export interface RestoreResult {
  text: string;
  /** Placeholders the model lost (or garbled) that were put back by position. */
  reinserted: number;
}

const PUNCTUATION = /[，。！？；：、,.!?;:…\n）)」』”]/;
/** How far (characters) a lost marker may move from its proportional spot to meet a good boundary. */
const SNAP_WINDOW = 24;

export function restorePauses(output: string, script: ProtectedScript): RestoreResult {
  const { sites } = script;
  const cleaned = output.replace(PAUSE_MARKER, '');
  const found = [...cleaned.matchAll(PLACEHOLDER)].map((m) => ({ n: Number(m[1]), index: m.index, length: m[0].length }));
  const keep = longestIncreasing(found.map((f) => f.n).map((n) => (n >= 1 && n <= sites.length ? n : -1)));

  // The text without any placeholder, and where each kept one stood in it.
  const pos = new Map<number, number>();
  let body = '';
  let last = 0;
  let floor = 0;
  found.forEach((f, i) => {
    body += cleaned.slice(last, f.index);
    last = f.index + f.length;
    if (!keep.has(i)) return;
    const site = sites[f.n - 1]!;
    if (!site.spaceBefore) {
      let end = body.length;
      while (end > floor && (body[end - 1] === ' ' || body[end - 1] === '\t')) end--;
      body = body.slice(0, end);
    }
    pos.set(f.n, body.length);
    floor = body.length;
    if (!site.spaceAfter) while (cleaned[last] === ' ' || cleaned[last] === '\t') last++;
  });
  body += cleaned.slice(last);

  let reinserted = 0;
  for (let n = 1; n <= sites.length; n++) {
    if (pos.has(n)) continue;
    const lower = n > 1 ? pos.get(n - 1)! : 0;
    let upper = body.length;
    for (let k = n + 1; k <= sites.length; k++) {
      if (pos.has(k)) {
        upper = pos.get(k)!;
        break;
      }
    }
    pos.set(n, placeLost(body, sites[n - 1]!, script.plainLength, lower, upper));
    reinserted++;
  }

  let text = '';
  let cursor = 0;
  for (let n = 1; n <= sites.length; n++) {
    const at = pos.get(n)!;
    text += body.slice(cursor, at) + sites[n - 1]!.text;
    cursor = at;
  }
  text += body.slice(cursor);

  const markers = [...text.matchAll(PAUSE_MARKER)].map((m) => m[0]);
  if (markers.length !== sites.length || markers.some((m, i) => m !== sites[i]!.text)) {
    throw new Error('pause markers not restored');
  }
  return { text, reinserted };
}

/** Indices of a longest strictly increasing run of positive values (the placeholders kept in order). */
function longestIncreasing(values: number[]): Set<number> {
  const best: number[] = values.map(() => 0);
  const prev: number[] = values.map(() => -1);
  let end = -1;
  values.forEach((v, i) => {
    if (v < 1) return;
    best[i] = 1;
    for (let j = 0; j < i; j++) {
      if (values[j]! >= 1 && values[j]! < v && best[j]! + 1 > best[i]!) {
        best[i] = best[j]! + 1;
        prev[i] = j;
      }
    }
    if (end < 0 || best[i]! > best[end]!) end = i;
  });
  const out = new Set<number>();
  for (let i = end; i >= 0; i = prev[i]!) out.add(i);
  return out;
}

/** Where a lost marker goes: its place by proportion, moved to a matching character or a punctuation mark close by. */
function placeLost(body: string, site: MarkerSite, plainLength: number, lower: number, upper: number): number {
  const clamp = (p: number) => Math.min(Math.max(p, lower), upper);
  const target = clamp(plainLength > 0 ? Math.round((site.at / plainLength) * body.length) : body.length);
  if (site.at === 0) return lower;
  if (site.at === plainLength) return upper;
  let bestAt = target;
  let bestScore = Number.POSITIVE_INFINITY;
  for (let p = clamp(target - SNAP_WINDOW); p <= clamp(target + SNAP_WINDOW); p++) {
    if (isLowSurrogate(body.charCodeAt(p))) continue;
    const prevChar = body.charAt(p - 1);
    const bonus = site.before && prevChar === site.before ? SNAP_WINDOW * 2 : PUNCTUATION.test(prevChar) ? SNAP_WINDOW : 0;
    const score = Math.abs(p - target) - bonus;
    if (score < bestScore) {
      bestScore = score;
      bestAt = p;
    }
  }
  return bestAt;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
