import { Button, Icon, NonIdealState, Spinner } from '@blueprintjs/core';
import type { ImageRecord } from '../../../contract';
import { metaLine, useStore, useValue } from '../../../core';
import type { ImageGenScreen } from '../imagegen-state';
import { recordState } from '../imagegen-view';

/** 生成记录: every record with its state, newest first; the one previewed is marked. */
export function History({ screen }: { screen: ImageGenScreen }) {
  const records = useStore(screen.records);
  const previewed = useValue(screen.previewed$);
  const list = records.value ?? [];
  return (
    <section className="tool-card ig-history" aria-label="生成记录">
      <div className="ig-history-head">
        <h3>生成记录</h3>
        <Button variant="minimal" size="small" icon="refresh" text="刷新" loading={records.loading && records.loaded} onClick={() => screen.records.reload()} data-testid="imagegen-refresh" />
      </div>
      {!records.loaded ? (
        <div className="ig-center">{records.error ? <NonIdealState icon="error" description={records.error} /> : <Spinner size={24} />}</div>
      ) : list.length === 0 ? (
        <p className="ig-muted">还没有生成记录，写下描述词试试吧。</p>
      ) : (
        <div className="ig-records" data-testid="imagegen-records">
          {list.map((r) => (
            <RecordCard
              key={r.id}
              record={r}
              active={r.id === previewed?.id}
              onChoose={(rec) => screen.choose(rec)}
              onDownload={(rec) => void screen.download(rec, rec.url.map((_, i) => i))}
              onDelete={(rec) => screen.deletion.ask(rec)}
            />
          ))}
        </div>
      )}
    </section>
  );
}

interface RecordCardProps {
  record: ImageRecord;
  active: boolean;
  onChoose: (r: ImageRecord) => void;
  onDownload: (r: ImageRecord) => void;
  onDelete: (r: ImageRecord) => void;
}

function RecordCard({ record: r, active, onChoose, onDownload, onDelete }: RecordCardProps) {
  const state = recordState(r);
  return (
    <article className={`ig-record ${state}${active ? ' active' : ''}`} data-testid="imagegen-record" data-id={r.id} data-state={state}>
      <div className="ig-record-thumb">
        {state === 'done' && r.url[0] ? (
          <img src={r.url[0]} alt={r.text} loading="lazy" draggable={false} />
        ) : state === 'failed' ? (
          <Icon icon="error" size={22} />
        ) : (
          <Spinner size={22} />
        )}
        {state === 'done' && r.url.length > 1 && <span className="ig-record-count">{r.url.length}张</span>}
      </div>
      <div className="ig-record-body">
        <p className="ig-record-text" title={r.text}>
          {r.text}
        </p>
        <p className="ig-record-meta">{metaLine(r.ratio, `${r.num}张`, r.create_time)}</p>
        {state === 'failed' && <p className="ig-record-reason" data-testid="imagegen-record-reason">{r.reason || '生成失败'}</p>}
        {state === 'running' && <p className="ig-record-running">生成中，请稍候…</p>}
        {state !== 'running' && (
          <div className="ig-record-actions">
            {state === 'done' && (
              <>
                <Button size="small" variant="minimal" icon="tick-circle" text="选择" onClick={() => onChoose(r)} data-testid="imagegen-record-choose" />
                <Button size="small" variant="minimal" icon="download" text="下载" onClick={() => onDownload(r)} data-testid="imagegen-record-download" />
              </>
            )}
            <Button size="small" variant="minimal" icon="trash" text="删除" intent="danger" onClick={() => onDelete(r)} data-testid="imagegen-record-delete" />
          </div>
        )}
      </div>
    </article>
  );
}
