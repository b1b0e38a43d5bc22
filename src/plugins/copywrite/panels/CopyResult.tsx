/**
 * The record shown: its state (a spinner while it is read, the reason when it failed), then its source (来源：语音识别
 * / 画面字幕), the whole copy (edited in place), the actions and the timed sentences, and the 二创 box.
 */
import { Button, Callout, NonIdealState, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { CopywriteStatus, LIMITS, type CopyRecord } from '../../../contract';
import { formatClock, useStore, useValue } from '../../../core';
import type { CopywriteScreen } from '../copywrite-state';
import { clockOf, isOpen, recordTitle, sourceLabel, statusOf } from '../copywrite-view';
import { RewriteBox } from './RewriteBox';

export function CopyResult({ screen }: { screen: CopywriteScreen }) {
  const current = useStore(screen.current);
  const selected = useValue(screen.selected$);
  const r = current.value;
  if (selected === null || (!r && !current.loading)) {
    return (
      <section className="cw-result cw-center" data-testid="copywrite-result">
        <NonIdealState icon="clipboard" title="还没有文案" description="粘贴视频链接或上传视频，提取的口播文案会显示在这里。" />
      </section>
    );
  }
  if (!r) {
    return (
      <section className="cw-result cw-center" data-testid="copywrite-result">
        <Spinner size={28} />
      </section>
    );
  }
  return (
    <section className="cw-result" data-testid="copywrite-result" data-status={r.status} data-id={r.id}>
      <RecordHead record={r} />
      {isOpen(r) && (
        <div className="cw-reading" data-testid="copywrite-reading">
          <Spinner size={20} />
          <span>{r.status === CopywriteStatus.Queued ? '排队中，马上开始识别…' : '正在识别口播和画面字幕，视频越长需要的时间越久…'}</span>
        </div>
      )}
      {r.status === CopywriteStatus.Failed && (
        <Callout intent="danger" icon="error" data-testid="copywrite-reason">
          {r.reason}
        </Callout>
      )}
      {r.status === CopywriteStatus.Done && <CopyBody screen={screen} record={r} />}
    </section>
  );
}

function RecordHead({ record: r }: { record: CopyRecord }) {
  const st = statusOf(r);
  return (
    <header className="cw-record-head">
      <div className="cw-cover">{r.cover ? <img src={r.cover} alt="" /> : <span className="cw-cover-empty" />}</div>
      <div className="cw-record-text">
        <span className="cw-record-title" title={recordTitle(r)}>
          {recordTitle(r)}
        </span>
        <span className="cw-record-meta">
          <Tag minimal round intent={st.intent} data-testid="copywrite-status">
            {st.text}
          </Tag>
          {r.source && (
            <Tag round intent="primary" minimal icon={r.source === 'asr' ? 'microphone' : 'media'} data-testid="copywrite-source">
              {sourceLabel(r)}
            </Tag>
          )}
          {r.duration > 0 && <span>{formatClock(r.duration)}</span>}
          <span>{r.create_time}</span>
        </span>
      </div>
    </header>
  );
}

function CopyBody({ screen, record: r }: { screen: CopywriteScreen; record: CopyRecord }) {
  const draft = useValue(screen.draft$);
  const saving = useValue(screen.savingEdit$);
  const editing = draft !== null;
  return (
    <>
      <div className="cw-copy">
        <header className="cw-section-head">
          <h3>文案</h3>
          <span className="cw-muted">{[...(editing ? draft : r.text)].length} 字</span>
        </header>
        {editing ? (
          <TextArea
            className="cw-editor"
            fill
            autoResize
            value={draft}
            maxLength={LIMITS.copywrite.textMaxChars}
            onChange={(e) => screen.draft$.next(e.target.value)}
            autoFocus
            data-testid="copywrite-editor"
          />
        ) : (
          <p className="cw-text" data-testid="copywrite-text">
            {r.text}
          </p>
        )}
        <div className="cw-actions">
          {editing ? (
            <>
              <Button intent="primary" icon="tick" text="保存修改" loading={saving} onClick={() => void screen.saveEdit()} data-testid="copywrite-edit-save" />
              <Button variant="minimal" text="取消" onClick={() => screen.cancelEdit()} />
            </>
          ) : (
            <>
              <Button icon="duplicate" text="复制" onClick={() => void screen.copy(r.text)} data-testid="copywrite-copy" />
              <Button icon="edit" text="编辑" onClick={() => screen.edit()} data-testid="copywrite-edit" />
              <Button icon="floppy-disk" text="保存到素材库" onClick={() => void screen.saveToMaterial()} data-testid="copywrite-save" />
              <Button intent="primary" icon="video" text="去创作" onClick={() => screen.goCreate(r.text)} data-testid="copywrite-create" />
            </>
          )}
        </div>
      </div>
      <details className="cw-segments" data-testid="copywrite-segments">
        <summary>分句与时间（{r.segments.length} 句）</summary>
        <ol>
          {r.segments.map((s, i) => (
            <li key={i} data-testid="copywrite-segment">
              <span className="cw-time">
                {clockOf(s.start)} – {clockOf(s.end)}
              </span>
              <span>{s.text}</span>
            </li>
          ))}
        </ol>
      </details>
      <RewriteBox screen={screen} />
    </>
  );
}
