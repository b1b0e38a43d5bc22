/**
 * The pure arithmetic of video translation's dubbing (part 2 §2.7): fitting each translated sentence's speech
 * into the slot of the sentence it replaces, and reading the chat engine's translated lines back (the subtitle file
 * is src/contract/subtitles.ts's formatSrt, shared with every feature that makes subtitles).
 */
import { jsonIn } from '../../engines/chat';

/** A sentence of the original: where it is spoken, seconds. */
export interface SourceSlot {
  start: number;
  end: number;
}

/** Where a dubbed sentence goes and how it is played to fit. */
export interface PlacedSpeech {
  start: number;
  /** atempo factor, 1 … MAX_DUB_SPEEDUP. */
  speed: number;
  /** Seconds it lasts once sped up (and trimmed). */
  length: number;
  /** True when even the speed-up and the following silence were not enough and its end was cut. */
  trimmed: boolean;
}

/** Faster than this and speech stops sounding natural (what the open-source dubbing tools settle on). */
export const MAX_DUB_SPEEDUP = 1.4;

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Fits each dubbed sentence (`speech[i]` seconds long) into its original's slot: as is when it fits; else sped
 * up, at most MAX_DUB_SPEEDUP; if still too long it runs on into the silence before the next sentence (or the
 * video's end); what does not fit even then is trimmed. Sentences never overlap and never pass `total`.
 */
export function fitSlots(slots: readonly SourceSlot[], speech: readonly number[], total: number): PlacedSpeech[] {
  return slots.map((slot, i) => {
    const start = Math.max(0, Math.min(slot.start, total));
    const own = Math.max(0, Math.min(slot.end, total) - start);
    const until = Math.max(start, Math.min(i + 1 < slots.length ? slots[i + 1]!.start : total, total));
    const natural = speech[i] ?? 0;
    if (natural <= own) return { start: round3(start), speed: 1, length: round3(natural), trimmed: false };
    const speed = own > 0 ? Math.min(natural / own, MAX_DUB_SPEEDUP) : MAX_DUB_SPEEDUP;
    const fast = natural / speed;
    if (fast <= until - start + 1e-9) return { start: round3(start), speed: round3(speed), length: round3(Math.min(fast, until - start)), trimmed: false };
    return { start: round3(start), speed: round3(speed), length: round3(until - start), trimmed: true };
  });
}

/**
 * The translated lines in a chat answer that was asked for a JSON array of `count` strings: the array found in the
 * answer (a model may wrap it in a code fence or a sentence), or undefined when there is none of that length.
 */
export function parseTranslatedLines(answer: string, count: number): string[] | undefined {
  return translatedLines(jsonIn(answer), count);
}

/** The lines of a parsed answer: an array of `count` non-blank strings, trimmed; else undefined. */
export function translatedLines(parsed: unknown, count: number): string[] | undefined {
  if (!Array.isArray(parsed) || parsed.length !== count) return undefined;
  if (!parsed.every((line) => typeof line === 'string' && line.trim() !== '')) return undefined;
  return (parsed as string[]).map((line) => line.trim());
}
