/** /store/copywrite/trace: every copy record a page at a time — cover, link, state, copy preview, re-open, delete. */
import { Button, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ConfirmDelete, PageHeader, useDeletionFlow, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import type { CopyRecord } from '../../../contract';
import { CopywriteStateToken, type CopywriteState } from '../copywrite-state';
import { COPYWRITE_ROUTE, isOpen, preview, recordTitle, sourceLabel, statusOf } from '../copywrite-view';
import './copywrite.css';

export default function TracePanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(CopywriteStateToken, (state: CopywriteState) => state.openTrace(closed$));
  const records = useStore(screen.records);
  const page = useValue(screen.page$);
  const deletion = useDeletionFlow(screen.deletion);
  const list = records.value?.list ?? [];
  const total = records.value?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / screen.pageSize));
  return (
    <div className="cw-page" data-testid="copywrite-trace">
      <div className="cw-inner">
        <PageHeader icon="history" title="文案溯源" subtitle="提取过的文案都在这里，可重新打开查看、编辑和改写">
          <a className="cw-trace-link" href={`#${COPYWRITE_ROUTE}`}>
            去提取文案
          </a>
        </PageHeader>
        {list.length === 0 ? (
          <div className="cw-center">
            {records.loading || !records.loaded ? (
              <Spinner size={28} />
            ) : (
              <NonIdealState icon="clipboard" title="暂无记录" description={records.error ?? '提取的文案会出现在这里。'} />
            )}
          </div>
        ) : (
          <ul className="cw-trace-list">
            {list.map((r) => (
              <TraceRow key={r.id} record={r} onOpen={() => screen.reopen(r)} onDelete={() => deletion.ask(r)} />
            ))}
          </ul>
        )}
        {pages > 1 && (
          <footer className="cw-pager" data-testid="copywrite-pager">
            <Button variant="minimal" icon="chevron-left" disabled={page <= 1} onClick={() => screen.goTo(page - 1)} aria-label="上一页" />
            <span>
              {page} / {pages}
            </span>
            <Button variant="minimal" icon="chevron-right" disabled={page >= pages} onClick={() => screen.goTo(page + 1)} aria-label="下一页" />
          </footer>
        )}
      </div>
      <ConfirmDelete deletion={deletion} title="删除记录" text={`确定删除「${deletion.target ? recordTitle(deletion.target) : ''}」吗？删除后无法恢复。`} classPrefix="cw" />
    </div>
  );
}

function TraceRow({ record: r, onOpen, onDelete }: { record: CopyRecord; onOpen(): void; onDelete(): void }) {
  const st = statusOf(r);
  return (
    <li className="cw-trace-row" data-testid="copywrite-trace-row" data-id={r.id} data-status={r.status}>
      <div className="cw-cover">{r.cover ? <img src={r.cover} alt="" /> : <span className="cw-cover-empty" />}</div>
      <div className="cw-trace-body">
        <span className="cw-record-title">{recordTitle(r)}</span>
        {r.link && (
          <a className="cw-trace-url" href={r.link} target="_blank" rel="noreferrer noopener">
            {r.link}
          </a>
        )}
        <span className="cw-record-meta">
          {isOpen(r) && <Spinner size={12} />}
          <Tag minimal round intent={st.intent}>
            {st.text}
          </Tag>
          {r.source && <span>{sourceLabel(r)}</span>}
          <span>{r.create_time}</span>
        </span>
        <p className={`cw-trace-preview${r.reason ? ' cw-error' : ''}`} data-testid="copywrite-trace-preview">
          {r.text ? preview(r.text, 90) : (r.reason ?? '')}
        </p>
      </div>
      <div className="cw-trace-actions">
        <Button icon="document-open" text="打开" onClick={onOpen} data-testid="copywrite-trace-open" />
        <Button icon="trash" variant="minimal" intent="danger" aria-label="删除" onClick={onDelete} data-testid="copywrite-trace-delete" />
      </div>
    </li>
  );
}
