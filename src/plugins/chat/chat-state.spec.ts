import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { API, CREATE_TEXT_KEY, LIMITS, MSG, ResultCode } from '../../contract';
import { fakeAnswerStream, fakeApi, fakeAuth, fakeClock, handOffStubs, screenServices } from '../../../tests/support/fake-api';
import { recordingNotifier } from '../../../tests/support/notes';
import { ChatState } from './chat-state';
import { StreamRefused } from './chat-stream';
import { shownText } from './chat-view';

const { notes, notifier } = recordingNotifier();

function setup(replies: Record<string, unknown> = {}) {
  let mid = 10;
  const api = fakeApi({
    [API.chat.engine.id]: { configured: 1 },
    [API.chat.records.id]: { list: [{ id: 1, title: '开场白', create_time: '2026-11-01 10:00:00' }], total: 1 },
    [API.chat.sendMessage.id]: (p: { cid?: number }) => ({ cid: p.cid ?? 5, mid: ++mid }),
    ...replies,
  });
  const auth = fakeAuth();
  const { stored, storage, navigation, tokens } = handOffStubs();
  const stream = fakeAnswerStream();
  const copied: string[] = [];
  const closed$ = new Subject<void>();
  const screen = new ChatState(screenServices({ api, notifier, auth, tokens, storage, navigation })).open(closed$, {
    read: stream.read,
    clipboard: async (text) => void copied.push(text),
  });
  return { api, auth, stored, navigation, stream, copied, closed$, screen };
}

const settle = fakeClock();

describe('copy chat state', () => {
  it('sends once, streams the answer and types it out, then reloads the list and the credits; the next question stays in the conversation', async () => {
    const t = setup();
    await settle();
    t.screen.input$.next(' 写一段开场白 ');
    const sent = t.screen.send();
    void t.screen.send(); // a second Enter while the first is on its way
    expect(t.screen.phase$.value).toBe('sending');
    await settle();
    expect(t.api.count(API.chat.sendMessage)).toBe(1);
    expect([t.screen.phase$.value, t.screen.input$.value, t.screen.cid$.value]).toEqual(['streaming', '', 5]);
    expect(t.stream.opened[0]!.url).toBe('/api/chat/index?token=tok&cid=5&mid=11');

    t.stream.opened[0]!.emit({ message: '大家好，' });
    t.stream.opened[0]!.emit({ message: '欢迎！' });
    const answer = () => t.screen.bubbles$.value.at(-1)!;
    expect([answer().content, answer().shown]).toEqual(['大家好，欢迎！', 0]);
    await settle(LIMITS.chatTypingMs * 3);
    expect(shownText(answer())).toBe('大家好'); // one character a tick
    t.stream.opened[0]!.end();
    await sent;
    await settle(LIMITS.chatTypingMs * 4);
    expect([shownText(answer()), answer().streaming, t.screen.phase$.value]).toEqual(['大家好，欢迎！', false, 'idle']);
    expect([t.api.count(API.chat.records), t.auth.refreshed]).toEqual([2, 1]);

    t.screen.input$.next('再来一段');
    void t.screen.send();
    await settle();
    expect(t.api.calls.at(-1)).toEqual({ id: API.chat.sendMessage.id, params: { cid: 5, content: '再来一段', model: 'v3' } });
    expect(t.screen.bubbles$.value.map((b) => b.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    t.screen.dispose();
  });

  it('keeps the question when the server refuses it', async () => {
    const t = setup({ [API.chat.sendMessage.id]: new Error(MSG.insufficientCredits) });
    await settle();
    t.screen.input$.next('写一段开场白');
    await t.screen.send();
    expect([t.screen.input$.value, t.screen.phase$.value, t.screen.bubbles$.value, t.stream.opened]).toEqual(['写一段开场白', 'idle', [], []]);
    t.screen.dispose();
  });

  it('stop keeps what arrived, shown at once; a refused stream says why and a lost session logs out', async () => {
    const t = setup();
    await settle();
    t.screen.input$.next('问题');
    const first = t.screen.send();
    await settle();
    t.stream.opened[0]!.emit({ message: '一二三四五' });
    t.screen.stop();
    await first;
    const answer = t.screen.bubbles$.value.at(-1)!;
    expect([shownText(answer), answer.streaming, answer.error, t.screen.phase$.value]).toEqual(['一二三四五', false, undefined, 'idle']);

    t.screen.input$.next('再问');
    const second = t.screen.send();
    await settle();
    t.stream.opened[1]!.fail(new StreamRefused('登录已过期', ResultCode.SessionExpired));
    await second;
    expect([t.screen.bubbles$.value.at(-1)!.error, t.auth.expired, notes.at(-1)]).toEqual(['登录已过期', 1, { kind: 'error', message: '登录已过期' }]);
    t.screen.dispose();
  });

  it('closing the panel stops the answer stream', async () => {
    const t = setup();
    await settle();
    t.screen.input$.next('问题');
    void t.screen.send();
    await settle();
    t.closed$.next();
    expect(t.stream.opened[0]!.signal.aborted).toBe(true);
  });

  it('reopens a conversation with the model its last answer used; deleting the open one starts a new one', async () => {
    const t = setup({
      [API.chat.messages.id]: { list: [{ id: 1, role: 'user', content: '问' }, { id: 2, role: 'assistant', content: '答', model: 'r1', reasoning: '想' }] },
      [API.chat.recordRemove.id]: {},
    });
    await settle();
    const record = t.screen.history.list.value!.items[0]!;
    const opening = t.screen.openRecord(record);
    expect(t.screen.opening$.value).toBe(1);
    await opening;
    expect([t.screen.cid$.value, t.screen.model$.value, t.screen.opening$.value, t.screen.bubbles$.value.map((b) => b.key)]).toEqual([1, 'r1', null, ['m1', 'm2']]);
    t.screen.deletion.ask(record);
    await t.screen.deletion.confirm();
    expect([t.screen.cid$.value, t.screen.bubbles$.value, t.api.count(API.chat.records)]).toEqual([undefined, [], 2]);
    t.screen.dispose();
  });

  it('copies, hands an answer to /create, saves it to material under its first 15 characters', async () => {
    const t = setup({ [API.material.saveText.id]: {} });
    await settle();
    await t.screen.copy('答案');
    t.screen.goCreate('答案');
    const long = '  一二三四五  六七八九十一二三四五六七  ';
    await t.screen.saveToMaterial(long);
    expect(t.copied).toEqual(['答案']);
    expect(t.stored[CREATE_TEXT_KEY]).toBe('答案');
    expect(t.navigation.navigate).toHaveBeenCalledWith('/create', { type: 'fk' });
    expect(t.api.calls.at(-1)?.params).toEqual({ name: '一二三四五 六七八九十一二三四', source: 'copy_chat', text: long });
    expect(notes).toEqual([{ kind: 'success', message: MSG.copySucceeded }, { kind: 'success', message: MSG.savedToMaterial }]);
    t.screen.dispose();
  });
});
