import { AnchorButton, Button, HTMLTable, Icon, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ExtractionStatus, type ExtractionRecord } from '../../../contract';
import { formatSize, listPending, useStore, useValue } from '../../../core';
import type { ExtractionScreen } from '../extraction-state';
import { downloadName, type ExtractionKind } from '../extraction-view';

/** The tab's records: a spinner, the failure with 重新加载, 暂无记录, or the table. */
export function RecordTable({ screen }: { screen: ExtractionScreen }) {
  const { kind } = screen;
  const records = useStore(screen.records);
  const tab = useValue(screen.tab$);
  const saving = useValue(screen.saving$);
  const list = records.value?.list ?? [];
  const pending = listPending({ ...records, reload: () => screen.records.reload() }, 'ex-center');
  if (pending) return pending;
  if (list.length === 0) {
    return (
      <div className="ex-center">
        <NonIdealState icon={kind.icon} title="暂无记录" description={tab === 'all' ? '提交后的记录会出现在这里。' : '这里没有记录。'} />
      </div>
    );
  }
  return (
    <div className="ex-table-wrap">
      <HTMLTable className="ex-table" data-testid="extraction-table">
        <thead>
          <tr>
            <th className="ex-col-no">序号</th>
            <th className="ex-col-status">状态</th>
            <th>{kind.material === 'video' ? '视频信息' : '音频信息'}</th>
            <th className="ex-col-actions">操作</th>
          </tr>
        </thead>
        <tbody>
          {list.map((r, i) => (
            <RecordRow key={r.id} index={i + 1} record={r} kind={kind} saving={saving.has(r.id)} onSave={() => void screen.saveToMaterial(r)} />
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

function StatusCell({ record }: { record: ExtractionRecord }) {
  if (record.status === ExtractionStatus.Processing) {
    return (
      <Tag intent="primary" minimal round icon={<Spinner size={12} />}>
        {record.status_name}
      </Tag>
    );
  }
  if (record.status === ExtractionStatus.Failed) {
    return (
      <div className="ex-failed">
        <Tag intent="danger" minimal round icon="error">
          {record.status_name}
        </Tag>
        {record.reason && <div className="ex-reason" data-testid="extraction-reason">{record.reason}</div>}
      </div>
    );
  }
  return (
    <Tag intent="success" minimal round icon="tick">
      {record.status_name}
    </Tag>
  );
}

interface RecordRowProps {
  index: number;
  record: ExtractionRecord;
  kind: ExtractionKind;
  saving: boolean;
  onSave: () => void;
}

function RecordRow({ index, record, kind, saving, onSave }: RecordRowProps) {
  const done = record.status === ExtractionStatus.Success;
  return (
    <tr data-testid="extraction-row" data-id={record.id} data-status={record.status}>
      <td className="ex-col-no">{index}</td>
      <td className="ex-col-status">
        <StatusCell record={record} />
      </td>
      <td>
        <div className="ex-info">
          <div className="ex-cover">
            {record.cover ? <img src={record.cover} alt="" loading="lazy" draggable={false} /> : <Icon icon={kind.material === 'video' ? 'video' : 'music'} size={22} />}
          </div>
          <div className="ex-info-text">
            <div className="ex-desc" title={record.desc}>
              {record.desc || (record.status === ExtractionStatus.Processing ? '正在解析…' : '—')}
            </div>
            <div className="ex-meta">
              {done && <span>{formatSize(record.size)}</span>}
              {record.create_time && <span>{record.create_time}</span>}
              {record.link && (
                <span className="ex-link-text" title={record.link}>
                  {record.link}
                </span>
              )}
            </div>
          </div>
        </div>
      </td>
      <td className="ex-col-actions">
        <div className="ex-actions">
          <AnchorButton size="small" icon="download" text="下载" href={done ? record.url : undefined} download={downloadName(record, kind)} disabled={!done} data-testid="extraction-download" />
          <Button size="small" intent="primary" icon="add-to-folder" text="保存到素材库" onClick={onSave} loading={saving} disabled={!done} data-testid="extraction-save" />
        </div>
      </td>
    </tr>
  );
}
