/** A batch's page: its counts, each row's state and work, cancel the rows not started, retry the failed, the zip. */
import { Button, Spinner, Tag } from '@blueprintjs/core';
import { useStore, useValue } from '../../../core';
import type { BatchScreen } from '../batch-state';
import { ROW_STATUS } from '../batch-view';

const COUNT_LABELS = [['queued', '排队中'], ['running', '合成中'], ['done', '已完成'], ['failed', '失败'], ['cancelled', '已取消']] as const;

export function BatchPage({ screen }: { screen: BatchScreen }) {
  const detail = useStore(screen.detail);
  const busy = useValue(screen.busy$);
  const d = detail.value;
  if (!d) return <div className="tool-card bat-loading">{detail.loading ? <Spinner size={24} /> : '批次不存在或已删除'}</div>;
  return (
    <section className="tool-card" data-testid="batch-page" data-id={d.id}>
      <header className="bat-card-head bat-page-head">
        <h3 data-testid="batch-page-name">{d.name}</h3>
        <span className="bat-note">{d.create_time}</span>
        <span className="bat-spacer" />
        <div className="bat-actions">
          <Button icon="disable" text="取消未开始的" disabled={busy || d.counts.queued === 0} onClick={() => void screen.cancel()} data-testid="batch-cancel" />
          <Button icon="refresh" text="重试失败的" disabled={busy || d.counts.failed === 0} onClick={() => void screen.retry()} data-testid="batch-retry" />
          <Button icon="archive" intent="primary" text="打包下载" disabled={busy || d.counts.done === 0} onClick={() => void screen.downloadZip()} data-testid="batch-zip" />
        </div>
      </header>
      <div className="bat-counts" data-testid="batch-counts">
        {COUNT_LABELS.map(([key, label]) => (
          <div key={key} className={`bat-count ${key}`} data-testid={`batch-count-${key}`} data-value={d.counts[key]}>
            <b>{d.counts[key]}</b>
            <span>{label}</span>
          </div>
        ))}
      </div>
      <ul className="bat-states">
        {d.rows.map((r) => {
          const status = ROW_STATUS[r.status] ?? ROW_STATUS[1]!;
          return (
            <li key={r.index} className="bat-state" data-testid="batch-page-row" data-status={r.status}>
              <span className="bat-num">{r.index}</span>
              <span className="bat-state-name">{r.name}</span>
              <Tag minimal round intent={status.intent} data-testid="batch-page-row-status">{status.text}</Tag>
              {r.reason && <span className="bat-reason">{r.reason}</span>}
              <span className="bat-spacer" />
              {r.work_id > 0 && <span className="bat-note">作品 #{r.work_id}</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
