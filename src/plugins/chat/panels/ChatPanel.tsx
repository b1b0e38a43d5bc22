import { Button, ButtonGroup, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { LIMITS, MSG } from '../../../contract';
import { ConfirmDelete, hasMorePages, MessageComposer, useDeletionFlow, useOpenedScreen, useScrolledToEnd, useStore, useValue, type PanelProps } from '../../../core';
import { ChatStateToken, type ChatScreen, type ChatState } from '../chat-state';
import { MessageBubble } from './MessageBubble';
import './chat.css';

/** /store/aiChat: the copy-spark chat (part 2 §2.10, §4). The state is the chat's (chat-state.ts); these components render it. */
export default function ChatPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(ChatStateToken, (state: ChatState) => state.open(closed$));
  const engine = useStore(screen.engine);
  const model = useValue(screen.model$);
  const deletion = useDeletionFlow(screen.deletion);
  const configured = engine.value?.configured === 1;
  return (
    <div className="chat-page" data-testid="chat-panel">
      <Conversations screen={screen} />

      <section className="chat-main">
        <header className="chat-head">
          <h1>文案火花</h1>
          <ButtonGroup>
            {(['v3', 'r1'] as const).map((m) => (
              <Button key={m} text={m === 'v3' ? 'V3 对话' : 'R1 深度思考'} active={model === m} intent={model === m ? 'primary' : 'none'} aria-pressed={model === m} onClick={() => screen.model$.next(m)} data-testid={`chat-model-${m}`} />
            ))}
          </ButtonGroup>
        </header>

        {engine.loaded && !configured && (
          <Callout intent="warning" icon="offline" className="chat-engine-missing" data-testid="chat-engine-missing">
            {MSG.chatEngineMissing}
          </Callout>
        )}

        <Messages screen={screen} />
        <Composer screen={screen} configured={configured} />
      </section>

      <ConfirmDelete deletion={deletion} title="删除对话" text={`确定删除「${deletion.target?.title ?? ''}」吗？删除后无法恢复。`} classPrefix="chat" />
    </div>
  );
}

/** 新建对话 and the conversation list: reopen, delete, load more. */
function Conversations({ screen }: { screen: ChatScreen }) {
  const history = useStore(screen.history.list);
  const loadingMore = useValue(screen.history.loadingMore$);
  const cid = useValue(screen.cid$);
  const opening = useValue(screen.opening$);
  const loading = useValue(screen.phase$) !== 'idle';
  const items = history.value?.items ?? [];
  return (
    <aside className="chat-side">
      <Button icon="plus" intent="primary" text="新建对话" fill onClick={() => screen.newConversation()} disabled={loading} data-testid="chat-new" />
      <div className="chat-history" data-testid="chat-history">
        {items.map((r) => (
          <div key={r.id} className={`chat-record${r.id === cid ? ' active' : ''}`} data-testid="chat-record">
            <button type="button" className="chat-record-open" onClick={() => void screen.openRecord(r)} disabled={loading} title={r.title}>
              <span className="chat-record-title">{r.title}</span>
              <span className="chat-record-time">{r.create_time}</span>
            </button>
            {opening === r.id ? <Spinner size={14} /> : <Button variant="minimal" size="small" icon="trash" aria-label="删除对话" onClick={() => screen.deletion.ask(r)} disabled={loading} />}
          </div>
        ))}
        {history.loaded && items.length === 0 && <p className="chat-muted">暂无对话记录</p>}
        {hasMorePages(history.value) && <Button variant="minimal" size="small" text="加载更多" loading={loadingMore} onClick={() => screen.history.loadMore()} />}
      </div>
    </aside>
  );
}

/** The conversation, kept scrolled to its end as answers arrive. */
function Messages({ screen }: { screen: ChatScreen }) {
  const bubbles = useValue(screen.bubbles$);
  const area = useScrolledToEnd(bubbles);
  return (
    <div className="chat-messages" ref={area} data-testid="chat-messages">
      {bubbles.length === 0 && <NonIdealState icon="chat" title="有什么文案需要帮忙？" description={`每次回答消耗 ${LIMITS.chatAnswerCredits} 积分；回答失败不扣积分。`} />}
      {bubbles.map((b, i) => (
        <MessageBubble
          key={b.key}
          bubble={b}
          onStop={i === bubbles.length - 1 && b.streaming ? () => screen.stop() : undefined}
          onCopy={(text) => void screen.copy(text)}
          onCreate={(text) => screen.goCreate(text)}
          onSave={(text) => void screen.saveToMaterial(text)}
        />
      ))}
    </div>
  );
}

/** The question box: Enter sends, Shift+Enter breaks the line. */
function Composer({ screen, configured }: { screen: ChatScreen; configured: boolean }) {
  const phase = useValue(screen.phase$);
  return (
    <MessageComposer
      className="chat-compose"
      input$={screen.input$}
      onSend={() => void screen.send()}
      placeholder={configured ? '输入你的问题，Enter 发送，Shift+Enter 换行' : MSG.chatEngineMissing}
      maxLength={LIMITS.chatMaxChars}
      disabled={!configured}
      testId="chat-input"
      send={{ text: `发送（${LIMITS.chatAnswerCredits}积分）`, testId: 'chat-send', held: phase !== 'idle', sending: phase === 'sending' }}
    />
  );
}
