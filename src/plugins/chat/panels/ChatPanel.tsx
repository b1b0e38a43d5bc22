import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, Collapse, NonIdealState, Spinner, TextArea } from '@blueprintjs/core';
import { API, CREATE_TEXT_KEY, LIMITS, MSG, ResultCode, type ChatMessage, type ChatModel, type ChatRecord } from '../../../contract';
import {
  ConfirmDelete, TOKENS, useDeletion, usePagedList, useRemote, useService,
  type ApiClient, type AuthService, type Navigation, type Notifier, type PanelProps, type Storage, type TokenStore,
} from '../../../core';
import { answerStreamUrl, readAnswer, StreamRefused, typingStep } from '../chat-stream';
import './chat.css';

/** One bubble: a question, or an answer with what has arrived of it and how much of that is typed out. */
interface Bubble {
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

const fromMessage = (m: ChatMessage): Bubble => ({
  key: `m${m.id}`, role: m.role, content: m.content, reasoning: m.reasoning ?? '', model: m.model, shown: [...m.content].length, streaming: false,
});

/** /store/aiChat: the copy-spark chat (part 2 §2.10, §4). */
export default function ChatPanel({ closed$ }: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const tokens = useService<TokenStore>(TOKENS.TokenStore);
  const auth = useService<AuthService>(TOKENS.AuthService);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const storage = useService<Storage>(TOKENS.Storage);
  const navigation = useService<Navigation>(TOKENS.Navigation);

  const engine = useRemote('engine', (signal) => api.call(API.chat.engine, {}, { silent: true, signal }));
  const configured = engine.value?.configured === 1;
  const [historyRound, setHistoryRound] = useState(0);
  const history = usePagedList<ChatRecord, { items: ChatRecord[]; total?: number }>(`history${historyRound}`, (page, signal) =>
    api.call(API.chat.records, { page, limit: 20 }, { signal }).then((r) => ({ items: r.list, total: r.total })),
  );

  const [cid, setCid] = useState<number | undefined>(undefined);
  const [model, setModel] = useState<ChatModel>('v3');
  const [input, setInput] = useState('');
  const [bubbles, setBubbles] = useState<Bubble[]>([]);
  const [loading, setLoading] = useState(false);
  const [opening, setOpening] = useState<number | null>(null);
  const stream = useRef<AbortController | null>(null);
  const sending = useRef(false);
  const area = useRef<HTMLDivElement>(null);

  const patchLast = useCallback((change: (b: Bubble) => Bubble) => setBubbles((all) => [...all.slice(0, -1), change(all[all.length - 1]!)]), []);

  // The typing effect: every 30 ms the answer being typed shows one more character (more when far behind).
  const typing = bubbles.some((b) => b.shown < [...b.content].length);
  useEffect(() => {
    if (!typing) return;
    const timer = setInterval(
      () => setBubbles((all) => all.map((b) => {
        const total = [...b.content].length;
        return b.shown < total ? { ...b, shown: b.shown + typingStep(total - b.shown) } : b;
      })),
      LIMITS.chatTypingMs,
    );
    return () => clearInterval(timer);
  }, [typing]);

  useEffect(() => {
    area.current?.scrollTo({ top: area.current.scrollHeight });
  }, [bubbles]);

  useEffect(() => {
    const sub = closed$.subscribe(() => stream.current?.abort());
    return () => {
      sub.unsubscribe();
      stream.current?.abort();
    };
  }, [closed$]);

  const finish = () => {
    stream.current = null;
    sending.current = false;
    setLoading(false);
    setHistoryRound((n) => n + 1);
    void auth.refreshProfile().catch(() => undefined);
  };

  const send = async () => {
    const content = input.trim();
    // `loading` is state and lags a render behind; the ref stops a double click from sending twice.
    if (!content || loading || sending.current || !configured) return;
    sending.current = true;
    setLoading(true);
    let ids: { cid: number; mid: number };
    try {
      ids = await api.call(API.chat.sendMessage, { cid, content, model });
    } catch {
      sending.current = false;
      setLoading(false);
      return;
    }
    setCid(ids.cid);
    setInput('');
    setBubbles((all) => [
      ...all,
      { key: `q${ids.mid}`, role: 'user', content, reasoning: '', shown: [...content].length, streaming: false },
      { key: `m${ids.mid}`, role: 'assistant', content: '', reasoning: '', model, shown: 0, streaming: true },
    ]);
    const controller = new AbortController();
    stream.current = controller;
    try {
      await readAnswer(answerStreamUrl(tokens.get() ?? '', ids), controller.signal, (e) => {
        patchLast((b) => ({ ...b, content: b.content + e.message, reasoning: b.reasoning + (e.reasoning ?? ''), error: e.error ?? b.error }));
        if (e.error) notifier.error(e.error);
      });
    } catch (err) {
      if (!controller.signal.aborted) {
        if (err instanceof StreamRefused && err.code === ResultCode.SessionExpired) auth.expire();
        const message = err instanceof Error ? err.message : String(err);
        notifier.error(message);
        patchLast((b) => ({ ...b, error: message }));
      }
    }
    patchLast((b) => ({ ...b, streaming: false }));
    finish();
  };

  /** Stop: the stream closes, what arrived stays (shown at once). */
  const stop = () => {
    stream.current?.abort();
    patchLast((b) => ({ ...b, streaming: false, shown: [...b.content].length }));
  };

  const newConversation = () => {
    if (loading) return;
    setCid(undefined);
    setBubbles([]);
  };

  const open = async (record: ChatRecord) => {
    if (loading) return;
    setOpening(record.id);
    try {
      const { list } = await api.call(API.chat.messages, { cid: record.id });
      setCid(record.id);
      setBubbles(list.map(fromMessage));
      // The conversation goes on with the model its last answer used.
      const lastModel = list.findLast((m) => m.role === 'assistant' && m.model)?.model;
      if (lastModel) setModel(lastModel);
    } catch {
      // the ApiClient has said why
    } finally {
      setOpening(null);
    }
  };

  const deletion = useDeletion(
    (record: ChatRecord) => api.call(API.chat.recordRemove, { id: record.id }),
    (record) => {
      if (record.id === cid) newConversation();
      setHistoryRound((n) => n + 1);
    },
  );

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      notifier.success(MSG.copySucceeded);
    } catch {
      notifier.error(MSG.copyFailed);
    }
  };
  const goCreate = (text: string) => {
    storage.set(CREATE_TEXT_KEY, text);
    navigation.navigate('/create', { type: 'fk' });
  };
  const saveToMaterial = async (text: string) => {
    try {
      await api.call(API.material.saveText, { name: [...text.replace(/\s+/g, ' ').trim()].slice(0, 15).join(''), source: 'copy_chat', text });
      notifier.success(MSG.savedToMaterial);
    } catch {
      // the ApiClient has said why
    }
  };

  return (
    <div className="chat-page" data-testid="chat-panel">
      <aside className="chat-side">
        <Button icon="plus" intent="primary" text="新建对话" fill onClick={newConversation} disabled={loading} data-testid="chat-new" />
        <div className="chat-history" data-testid="chat-history">
          {history.items.map((r) => (
            <div key={r.id} className={`chat-record${r.id === cid ? ' active' : ''}`} data-testid="chat-record">
              <button type="button" className="chat-record-open" onClick={() => void open(r)} disabled={loading} title={r.title}>
                <span className="chat-record-title">{r.title}</span>
                <span className="chat-record-time">{r.create_time}</span>
              </button>
              {opening === r.id ? <Spinner size={14} /> : <Button variant="minimal" size="small" icon="trash" aria-label="删除对话" onClick={() => deletion.ask(r)} disabled={loading} />}
            </div>
          ))}
          {history.loaded && history.items.length === 0 && <p className="chat-muted">暂无对话记录</p>}
          {history.hasMore && <Button variant="minimal" size="small" text="加载更多" loading={history.loadingMore} onClick={history.loadMore} />}
        </div>
      </aside>

      <section className="chat-main">
        <header className="chat-head">
          <h1>文案火花</h1>
          <ButtonGroup>
            {(['v3', 'r1'] as const).map((m) => (
              <Button key={m} text={m === 'v3' ? 'V3 对话' : 'R1 深度思考'} active={model === m} intent={model === m ? 'primary' : 'none'} aria-pressed={model === m} onClick={() => setModel(m)} data-testid={`chat-model-${m}`} />
            ))}
          </ButtonGroup>
        </header>

        {engine.loaded && !configured && (
          <Callout intent="warning" icon="offline" className="chat-engine-missing" data-testid="chat-engine-missing">
            {MSG.chatEngineMissing}
          </Callout>
        )}

        <div className="chat-messages" ref={area} data-testid="chat-messages">
          {bubbles.length === 0 && (
            <NonIdealState icon="chat" title="有什么文案需要帮忙？" description={`每次回答消耗 ${LIMITS.chatAnswerCredits} 积分；回答失败不扣积分。`} />
          )}
          {bubbles.map((b, i) => (
            <MessageBubble
              key={b.key}
              bubble={b}
              onStop={i === bubbles.length - 1 && b.streaming ? stop : undefined}
              onCopy={copy}
              onCreate={goCreate}
              onSave={saveToMaterial}
            />
          ))}
        </div>

        <footer className="chat-compose">
          <TextArea
            value={input}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void send();
              }
            }}
            placeholder={configured ? '输入你的问题，Enter 发送，Shift+Enter 换行' : MSG.chatEngineMissing}
            maxLength={LIMITS.chatMaxChars}
            disabled={!configured}
            fill
            autoResize
            data-testid="chat-input"
          />
          <Button
            intent="primary"
            icon="send-message"
            text={`发送（${LIMITS.chatAnswerCredits}积分）`}
            onClick={() => void send()}
            disabled={!configured || loading || !input.trim()}
            loading={loading && !stream.current}
            data-testid="chat-send"
          />
        </footer>
      </section>

      <ConfirmDelete
        deletion={deletion}
        title="删除对话"
        text={`确定删除「${deletion.target?.title ?? ''}」吗？删除后无法恢复。`}
        classPrefix="chat"
      />
    </div>
  );
}

interface BubbleProps {
  bubble: Bubble;
  onStop?: () => void;
  onCopy: (text: string) => void;
  onCreate: (text: string) => void;
  onSave: (text: string) => void;
}

function MessageBubble({ bubble: b, onStop, onCopy, onCreate, onSave }: BubbleProps) {
  const thinking = b.streaming && !b.content;
  // The reasoning is open while it is all there is, and folds away once the answer begins (a click reopens it).
  const [reasoningOpen, setReasoningOpen] = useState<boolean | null>(null);
  const showReasoning = reasoningOpen ?? thinking;
  if (b.role === 'user') {
    return (
      <div className="chat-bubble user" data-testid="chat-question">
        <div className="chat-text">{b.content}</div>
      </div>
    );
  }
  const text = [...b.content].slice(0, b.shown).join('');
  const done = !b.streaming && b.shown >= [...b.content].length;
  return (
    <div className="chat-bubble assistant" data-testid="chat-answer">
      {b.reasoning && (
        <div className="chat-reasoning" data-testid="chat-reasoning">
          <Button variant="minimal" size="small" icon={showReasoning ? 'chevron-down' : 'chevron-right'} text={thinking ? '深度思考中…' : '已深度思考'} onClick={() => setReasoningOpen(!showReasoning)} data-testid="chat-reasoning-toggle" />
          <Collapse isOpen={showReasoning}>
            <div className="chat-reasoning-text" data-testid="chat-reasoning-text">{b.reasoning}</div>
          </Collapse>
        </div>
      )}
      <div className="chat-text" data-testid="chat-answer-text">
        {text}
        {!done && !b.error && <span className="chat-caret" />}
        {thinking && !b.reasoning && <Spinner size={16} className="chat-wait" />}
      </div>
      {b.error && <div className="chat-error" data-testid="chat-answer-error">{b.error}</div>}
      <div className="chat-actions">
        {onStop && <Button size="small" icon="stop" text="停止" onClick={onStop} data-testid="chat-stop" />}
        {done && b.content && (
          <>
            <Button size="small" variant="minimal" icon="duplicate" text="复制" onClick={() => onCopy(b.content)} data-testid="chat-copy" />
            <Button size="small" variant="minimal" icon="video" text="去创作" onClick={() => onCreate(b.content)} data-testid="chat-create" />
            <Button size="small" variant="minimal" icon="floppy-disk" text="保存到素材库" onClick={() => onSave(b.content)} data-testid="chat-save" />
          </>
        )}
      </div>
    </div>
  );
}
