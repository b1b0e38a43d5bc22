import { AnchorButton, Button, Icon, NonIdealState, Spinner } from '@blueprintjs/core';
import { VideoTaskStatus, type VideoRecord } from '../../../contract';
import { VideoPlayer, metaLine } from '../../../core';
import { MODE_LABEL, STATUS_TEXT, inProgress } from '../videogen-view';

/** The record shown: the player with download and delete, or a placeholder until one has finished. */
export function Preview({ record, onDelete }: { record?: VideoRecord; onDelete: (r: VideoRecord) => void }) {
  if (!record || record.status !== VideoTaskStatus.Success) {
    return (
      <div className="vg-card vg-preview vg-preview-empty">
        <NonIdealState icon="video" title="生成的视频会在这里播放" description="在左侧填写描述词和参数，点击生成视频。" />
      </div>
    );
  }
  return (
    <div className="vg-card vg-preview" data-testid="videogen-preview">
      <VideoPlayer key={record.url} className="vg-video" src={record.url} poster={record.cover} label="生成的视频" data-testid="videogen-video" />
      <div className="vg-preview-bar">
        <span className="vg-muted">
          {record.duration}秒 · {record.aspect_ratio} · {MODE_LABEL[record.mode === 'pro' ? 'pro' : 'std']}
          {record.engine === 'local' ? ' · 本机镜头运动' : ''}
        </span>
        <span>
          <AnchorButton size="small" variant="minimal" icon="download" text="下载" href={record.url} download={`video-${record.id}.mp4`} data-testid="videogen-download" />
          <Button size="small" variant="minimal" icon="trash" text="删除" onClick={() => onDelete(record)} data-testid="videogen-preview-delete" />
        </span>
      </div>
    </div>
  );
}

export interface HistoryProps {
  list: VideoRecord[];
  loading: boolean;
  selectedId?: number;
  onChoose: (r: VideoRecord) => void;
  onDelete: (r: VideoRecord) => void;
  onRefresh: () => void;
}

/** 历史记录: each record with its state; finished ones choose and download, ended ones delete. */
export function History(props: HistoryProps) {
  return (
    <div className="vg-card vg-history">
      <div className="vg-card-head">
        <span className="vg-label">历史记录</span>
        <Button size="small" variant="minimal" icon="refresh" aria-label="刷新" title="刷新" onClick={props.onRefresh} data-testid="videogen-history-refresh" />
      </div>
      {props.loading ? (
        <Spinner size={20} />
      ) : props.list.length === 0 ? (
        <span className="vg-muted">暂无记录</span>
      ) : (
        <div className="vg-history-list">
          {props.list.map((r) => (
            <div key={r.id} className={`vg-record ${props.selectedId === r.id ? 'active' : ''}`} data-testid="videogen-record" data-id={r.id} data-status={r.status}>
              <div className="vg-record-thumb">
                {r.status === VideoTaskStatus.Success ? <img src={r.cover} alt="" /> : inProgress(r) ? <Spinner size={18} /> : <Icon icon="error" intent="danger" />}
              </div>
              <div className="vg-record-text">
                <span className="vg-record-prompt" title={r.prompt}>
                  {r.prompt}
                </span>
                <span className="vg-muted">{metaLine(STATUS_TEXT(r), `${r.duration}秒`, r.aspect_ratio, r.create_time?.slice(5, 16))}</span>
                {r.status === VideoTaskStatus.Failed && r.error && <span className="vg-record-error">{r.error}</span>}
              </div>
              <div className="vg-record-actions">
                {r.status === VideoTaskStatus.Success && (
                  <>
                    <Button size="small" variant="minimal" icon="select" title="选择" aria-label="选择" onClick={() => props.onChoose(r)} data-testid="videogen-record-choose" />
                    <AnchorButton size="small" variant="minimal" icon="download" title="下载" aria-label="下载" href={r.url} download={`video-${r.id}.mp4`} />
                  </>
                )}
                {!inProgress(r) && <Button size="small" variant="minimal" icon="trash" title="删除" aria-label="删除" onClick={() => props.onDelete(r)} data-testid="videogen-record-delete" />}
              </div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
