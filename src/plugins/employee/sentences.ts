/** Cuts a streamed answer into the sentences the talking screen speaks one by one. */

/** Ends a sentence: Chinese and Western stops, and a line break. */
const END = /[。！？!?；;…\n]/;

/**
 * The whole sentences in `text` from `from` on (a stop and what follows it), and where the unfinished rest begins.
 * Each is at most `max` characters: a stretch past half of that is cut at its next comma, and at `max` regardless.
 */
export function takeSentences(text: string, from: number, max: number): { sentences: string[]; next: number } {
  const sentences: string[] = [];
  let start = from;
  for (let i = from; i < text.length; i++) {
    const length = i - start + 1;
    if (END.test(text[i]!) || (length >= max / 2 && /[，,、]/.test(text[i]!)) || length >= max) {
      const sentence = text.slice(start, i + 1).trim();
      if (/[\p{L}\p{N}]/u.test(sentence)) sentences.push(sentence);
      start = i + 1;
    }
  }
  return { sentences, next: start };
}

/** What is left once the answer has ended, as a last sentence ('' when nothing speakable). */
export function lastSentence(text: string, from: number, max: number): string {
  const rest = text.slice(from).trim();
  return /[\p{L}\p{N}]/u.test(rest) ? rest.slice(0, max) : '';
}
