/**
 * The history of dubs, newest first, a page at a time: each with its state (排队中, 生成中, 已完成, or 失败 with its
 * reason), length, roles, credits and time; play (into the player above), download, rename, delete.
 */
import { memo } from 'react';
import { AnchorButton, Button, NonIdealState, Spinner, Tag, Tooltip } from '@blueprintjs/core';
import { DubbingStatus, type DubbingRecord } from '../../contract';
import { formatClock, formatDateTime, metaLine } from '../../core';

export interface HistoryActions {
  select(record: DubbingRecord): void;
  rename(record: DubbingRecord): void;
  remove(record: DubbingRecord): void;
}

const STATUS: Record<number, { text: string; intent: 'none' | 'primary' | 'success' | 'danger' }> = {
  [DubbingStatus.Queued]: { text: '排队中', intent: 'none' },
  [DubbingStatus.Running]: { text: '生成中', intent: 'primary' },
  [DubbingStatus.Done]: { text: '已完成', intent: 'success' },
  [DubbingStatus.Failed]: { text: '失败', intent: 'danger' },
};

export interface DubHistoryProps {
  list: DubbingRecord[];
  total: number;
  page: number;
  pageSize: number;
  loading: boolean;
  selectedId: number | null;
  urlOf(record: DubbingRecord): string;
  onPage(page: number): void;
  actions: HistoryActions;
}

export const DubHistory = memo(function DubHistory({ list, total, page, pageSize, loading, selectedId, urlOf, onPage, actions }: DubHistoryProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <section className="dub-history" data-testid="dub-history">
      <header className="dub-section-head">
        <h3>历史记录</h3>
        <span className="dub-section-note">{total > 0 ? `共 ${total} 条` : ''}</span>
        {loading && <Spinner size={14} />}
      </header>
      {list.length === 0 ? (
        <NonIdealState icon="history" description={loading ? '加载中…' : '还没有配音，生成后会出现在这里'} className="dub-empty" />
      ) : (
        <ul className="dub-records">
          {list.map((r) => (
            <Record key={r.id} record={r} url={urlOf(r)} selected={r.id === selectedId} actions={actions} />
          ))}
        </ul>
      )}
      {pages > 1 && (
        <footer className="dub-pager" data-testid="dub-pager">
          <Button variant="minimal" icon="chevron-left" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="上一页" />
          <span>
            {page} / {pages}
          </span>
          <Button variant="minimal" icon="chevron-right" disabled={page >= pages} onClick={() => onPage(page + 1)} aria-label="下一页" />
        </footer>
      )}
    </section>
  );
});

function Record({ record: r, url, selected, actions }: { record: DubbingRecord; url: string; selected: boolean; actions: HistoryActions }) {
  const status = STATUS[r.status] ?? STATUS[DubbingStatus.Queued]!;
  const done = r.status === DubbingStatus.Done;
  const busy = r.status === DubbingStatus.Queued || r.status === DubbingStatus.Running;
  return (
    <li className={`dub-record ${selected ? 'selected' : ''}`} data-testid="dub-record" data-id={r.id} data-status={r.status}>
      <button type="button" className="dub-record-main" onClick={() => actions.select(r)} disabled={!done && r.status !== DubbingStatus.Failed} aria-label={`查看 ${r.name}`}>
        <span className="dub-record-icon">{busy ? <Spinner size={16} /> : <span className={`dub-record-glyph ${done ? 'done' : 'failed'}`} />}</span>
        <span className="dub-record-body">
          <span className="dub-record-title">
            <span className="dub-record-name" data-testid="dub-record-name">{r.name}</span>
            <Tag minimal round intent={status.intent} data-testid="dub-record-status">{status.text}</Tag>
          </span>
          <span className="dub-record-meta">
            {metaLine(done ? formatClock(r.duration) : '', `${r.lines}句`, r.roles.join('、'), r.credits > 0 ? `${r.credits}积分` : '免费', formatDateTime(r.create_time))}
          </span>
          {r.reason && <span className="dub-record-reason" data-testid="dub-record-reason">{r.reason}</span>}
        </span>
      </button>
      <div className="dub-record-actions">
        {done && (
          <>
            <Tooltip content="播放" placement="top" compact>
              <Button variant="minimal" icon="play" aria-label="播放" onClick={() => actions.select(r)} data-testid="dub-record-play" />
            </Tooltip>
            <Tooltip content="下载音频" placement="top" compact>
              <AnchorButton variant="minimal" icon="download" aria-label="下载音频" href={url} download={`${r.name}.mp3`} data-testid="dub-record-download" />
            </Tooltip>
            <Tooltip content="重命名" placement="top" compact>
              <Button variant="minimal" icon="edit" aria-label="重命名" onClick={() => actions.rename(r)} data-testid="dub-record-rename" />
            </Tooltip>
          </>
        )}
        {!busy && (
          <Tooltip content="删除" placement="top" compact>
            <Button variant="minimal" icon="trash" aria-label="删除" onClick={() => actions.remove(r)} data-testid="dub-record-delete" />
          </Tooltip>
        )}
      </div>
    </li>
  );
}
