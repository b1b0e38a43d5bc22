/**
 * Emotion marks (the grammar is in the contract's script.ts): what only the polish call needs, dropping the
 * tag-shaped words a model invents.
 */
import { EMOTION_MARK_NAMES } from '../../../src/contract';

/** A tag of the same shape whose word is not ours (`(happy)`, `(cough)`): the model invented it. */
const TAG_SHAPE = /\(([a-z][a-z-]{1,20})\)/g;

/** Drops tags the model made up (a tag-shaped word that is neither ours nor already in the user's text). */
export function dropUnknownTags(text: string, original: string): string {
  return text.replace(TAG_SHAPE, (tag, word: string) => ((EMOTION_MARK_NAMES as string[]).includes(word) || original.includes(tag) ? tag : ''));
}
