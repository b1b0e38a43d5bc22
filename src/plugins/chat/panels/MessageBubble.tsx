import { useState } from 'react';
import { Button, Collapse, Spinner } from '@blueprintjs/core';
import { answerDone, shownText, type Bubble } from '../chat-view';

interface BubbleProps {
  bubble: Bubble;
  onStop?: () => void;
  onCopy: (text: string) => void;
  onCreate: (text: string) => void;
  onSave: (text: string) => void;
}

/** A question, or an answer as typed so far with its reasoning (folded once the answer begins), stop and its actions. */
export function MessageBubble({ bubble: b, onStop, onCopy, onCreate, onSave }: BubbleProps) {
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
  const done = answerDone(b);
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
        {shownText(b)}
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
