/** What the copy chat and the employees' talk share about a conversation's answer streams. */
import type { ChatStreamEvent } from '../../../src/contract';

/** A conversation is titled after the start of its first question. */
const TITLE_CHARS = 20;

export const conversationTitle = (firstQuestion: string) => [...firstQuestion.trim()].slice(0, TITLE_CHARS).join('');

/** A streaming answer saves what it has (and so shows it is alive) this often. */
export const PROGRESS_MS = 5_000;
/**
 * An answer streaming without a heartbeat for this long was left by a process that died. Well above PROGRESS_MS;
 * with several API processes on one PostgreSQL, a live one's answers always beat more recently.
 */
export const ABANDONED_AFTER_SECONDS = 60;

/** Where the stream's events go: the route writes them to the browser. */
export type AnswerSink = (event: ChatStreamEvent) => void;
