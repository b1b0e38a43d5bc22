/** The pause-marker grammar `<#0.5#>` and the script character counter (ARCHITECTURE.md). */
import { LIMITS } from './limits';

export const PAUSE_MARKER = /<#(\d+(?:\.\d+)?)#>/g;

export const pauseMarker = (seconds: number) => `<#${seconds}#>`;

export function stripPauses(text: string): string {
  return text.replace(PAUSE_MARKER, '');
}

/** Characters that count toward the limit: code points, markers excluded. */
export function countChars(text: string): number {
  return [...stripPauses(text)].length;
}

export function pauseSeconds(text: string): number {
  let total = 0;
  for (const m of text.matchAll(PAUSE_MARKER)) total += Number(m[1]);
  return Math.round(total * 1000) / 1000;
}

/** Estimated duration in seconds: characters / 4.2 + pause seconds. */
export function estimateSeconds(text: string): number {
  return countChars(text) / LIMITS.charsPerSecond + pauseSeconds(text);
}

export function scriptLimit(channelApi?: string): number {
  return channelApi === 'nw' ? LIMITS.scriptMaxCharsNw : LIMITS.scriptMaxChars;
}

export type ScriptPart = { kind: 'text'; text: string } | { kind: 'pause'; seconds: number };

/** Splits a script at markers, for engines that need real silence inserted. */
export function splitScript(text: string): ScriptPart[] {
  const parts: ScriptPart[] = [];
  let last = 0;
  for (const m of text.matchAll(PAUSE_MARKER)) {
    if (m.index! > last) parts.push({ kind: 'text', text: text.slice(last, m.index) });
    parts.push({ kind: 'pause', seconds: Number(m[1]) });
    last = m.index! + m[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
