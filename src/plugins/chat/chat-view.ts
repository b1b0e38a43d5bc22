/** What the copy chat decides without the server: bubbles from messages, the typing effect's steps, names (part 2 §2.10, §4). */
import type { ChatMessage, ChatModel } from '../../contract';
import { typingStep } from './chat-stream';

/** One bubble: a question, or an answer with what has arrived of it and how much of that is typed out. */
export interface Bubble {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  reasoning: string;
  model?: ChatModel;
  /** Characters of `content` shown so far (the typing effect). */
  shown: number;
  streaming: boolean;
  error?: string;
}

const length = (text: string) => [...text].length;

export const fromMessage = (m: ChatMessage): Bubble => ({
  key: `m${m.id}`, role: m.role, content: m.content, reasoning: m.reasoning ?? '', model: m.model, shown: length(m.content), streaming: false,
});

/** A question sent and its answer, empty and streaming, under the message id the server gave. */
export const exchange = (mid: number, question: string, model: ChatModel): Bubble[] => [
  { key: `q${mid}`, role: 'user', content: question, reasoning: '', shown: length(question), streaming: false },
  { key: `m${mid}`, role: 'assistant', content: '', reasoning: '', model, shown: 0, streaming: true },
];

/** Some answer still has characters to type out. */
export const typing = (bubbles: readonly Bubble[]) => bubbles.some((b) => b.shown < length(b.content));

/** One tick of the typing effect: each answer behind shows one more character (more when far behind). */
export const typeTick = (bubbles: readonly Bubble[]): Bubble[] =>
  bubbles.map((b) => {
    const total = length(b.content);
    return b.shown < total ? { ...b, shown: b.shown + typingStep(total - b.shown) } : b;
  });

/** The answer being streamed with `change` applied. */
export const patchLast = (bubbles: readonly Bubble[], change: (b: Bubble) => Bubble): Bubble[] =>
  bubbles.length === 0 ? [...bubbles] : [...bubbles.slice(0, -1), change(bubbles[bubbles.length - 1]!)];

/** Stopped: what arrived stays, shown at once. */
export const stopped = (b: Bubble): Bubble => ({ ...b, streaming: false, shown: length(b.content) });

/** What an answer shows now, and whether it is complete (typed out and no longer streaming). */
export const shownText = (b: Bubble) => [...b.content].slice(0, b.shown).join('');
export const answerDone = (b: Bubble) => !b.streaming && b.shown >= length(b.content);

/** A conversation goes on with the model its last answer used. */
export const lastModel = (messages: readonly ChatMessage[]): ChatModel | undefined => messages.findLast((m) => m.role === 'assistant' && m.model)?.model;

/** An answer saved to the material library is named after its first 15 characters, spaces folded. */
export const materialName = (text: string) => [...text.replace(/\s+/g, ' ').trim()].slice(0, 15).join('');
