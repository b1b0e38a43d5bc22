/** 二创改写: style chips (口播, 种草, 知识分享, 搞笑, or a custom instruction), the streamed rewrite and what to do with it. */
import { Button, InputGroup, Spinner } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { useValue } from '../../../core';
import type { CopywriteScreen } from '../copywrite-state';
import { STYLES } from '../copywrite-view';

export function RewriteBox({ screen }: { screen: CopywriteScreen }) {
  const style = useValue(screen.style$);
  const instruction = useValue(screen.instruction$);
  const rewrite = useValue(screen.rewrite$);
  const streaming = !!rewrite?.streaming;
  const done = rewrite && !rewrite.streaming && rewrite.text.trim();
  return (
    <div className="cw-rewrite" data-testid="copywrite-rewrite">
      <header className="cw-section-head">
        <h3>二创改写</h3>
        <span className="cw-muted">每次 {LIMITS.chatAnswerCredits} 积分，失败不扣</span>
      </header>
      <div className="cw-chips" role="radiogroup" aria-label="改写风格">
        {STYLES.map((s) => (
          <button
            key={s.value}
            type="button"
            role="radio"
            aria-checked={style === s.value}
            className={`cw-chip${style === s.value ? ' active' : ''}`}
            onClick={() => screen.style$.next(s.value)}
            disabled={streaming}
            data-testid={`copywrite-style-${s.value}`}
          >
            {s.label}
          </button>
        ))}
      </div>
      {style === 'custom' && (
        <InputGroup
          placeholder="写下你的改写要求，例如：改成 30 秒的带货口播，语气更热情"
          value={instruction}
          maxLength={LIMITS.copywrite.instructionMaxChars}
          onChange={(e) => screen.instruction$.next(e.target.value)}
          disabled={streaming}
          data-testid="copywrite-instruction"
        />
      )}
      <div className="cw-actions">
        {streaming ? (
          <Button icon="stop" text="停止" onClick={() => screen.stopRewrite()} data-testid="copywrite-rewrite-stop" />
        ) : (
          <Button intent="primary" icon="lightbulb" text={rewrite ? '重新改写' : '开始改写'} onClick={() => void screen.rewrite()} data-testid="copywrite-rewrite-start" />
        )}
      </div>
      {rewrite && (
        <div className="cw-rewritten" data-testid="copywrite-rewritten" data-streaming={streaming ? '1' : '0'}>
          <p className="cw-text">
            {rewrite.text}
            {streaming && <Spinner size={12} className="cw-inline-spinner" />}
          </p>
          {rewrite.error && !rewrite.text && <p className="cw-error">{rewrite.error}</p>}
          {done && (
            <div className="cw-actions">
              <Button icon="duplicate" text="复制" onClick={() => void screen.copy(rewrite.text)} data-testid="copywrite-rewrite-copy" />
              <Button icon="floppy-disk" text="保存到素材库" onClick={() => void screen.saveToMaterial(rewrite.text)} data-testid="copywrite-rewrite-save" />
              <Button intent="primary" icon="video" text="去创作" onClick={() => screen.goCreate(rewrite.text)} data-testid="copywrite-rewrite-create" />
            </div>
          )}
        </div>
      )}
    </div>
  );
}
