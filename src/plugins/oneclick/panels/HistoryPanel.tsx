/** /cozeVideo/history: my one-click projects, drafts and rendered, with their latest work's state; reopen or delete. */
import { Button, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import { OneclickDraft, WorkStatus, type OneclickProject } from '../../../contract';
import { ConfirmDelete, PageHeader, formatDuration, useDeletionFlow, useOpenedScreen, useStore, type PanelProps } from '../../../core';
import { OneclickStateToken, type HistoryScreen, type OneclickState } from '../oneclick-state';
import { START_ROUTE } from '../oneclick-view';
import './oneclick.css';

const STATUS: Record<number, { label: string; intent: Intent }> = {
  [OneclickDraft]: { label: '草稿', intent: 'none' },
  [WorkStatus.Queued]: { label: '排队中', intent: 'warning' },
  [WorkStatus.Rendering]: { label: '生成中', intent: 'warning' },
  [WorkStatus.Success]: { label: '已完成', intent: 'success' },
  [WorkStatus.Failed]: { label: '失败', intent: 'danger' },
};

export default function HistoryPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(OneclickStateToken, (state: OneclickState) => state.openHistory(closed$));
  const history = useStore(screen.history);
  const deletion = useDeletionFlow(screen.deletion);
  const list = history.value?.list ?? [];
  return (
    <div className="oc-page" data-testid="oneclick-history">
      <div className="oc-inner">
        <PageHeader icon="history" title="一键成片 · 历史项目" subtitle="草稿和已生成的项目都在这里；打开任意一个可继续编辑分镜，再生成一个新作品。">
          <Button intent="primary" icon="plus" text="新建项目" onClick={() => (location.hash = `#${START_ROUTE}`)} />
        </PageHeader>
        {!history.loaded ? (
          <Spinner size={28} />
        ) : list.length === 0 ? (
          <NonIdealState icon="film" title="还没有一键成片项目" description="粘贴一段文案，几分钟就能得到一条完整短视频。" />
        ) : (
          <div className="oc-history">
            {list.map((p) => (
              <ProjectRow key={p.id} project={p} screen={screen} onDelete={() => deletion.ask(p)} />
            ))}
          </div>
        )}
      </div>
      <ConfirmDelete deletion={deletion} title="删除这个项目？" text="项目的分镜草稿将被删除；已生成的作品仍保留在「我的作品」中。" classPrefix="oc" />
    </div>
  );
}

function ProjectRow({ project, screen, onDelete }: { project: OneclickProject; screen: HistoryScreen; onDelete: () => void }) {
  const status = STATUS[project.status] ?? STATUS[OneclickDraft]!;
  return (
    <div className="tool-card oc-project" data-testid="oneclick-project" data-status={project.status}>
      <div className="oc-project-cover">{project.cover ? <img src={project.cover} alt="" /> : <span>分镜草稿</span>}</div>
      <div className="oc-project-main">
        <div className="oc-project-name">{project.name || '未命名'}</div>
        <div className="oc-project-meta">
          <Tag minimal intent={status.intent}>
            {status.label}
          </Tag>
          <span>{project.scenes} 个分镜</span>
          {project.duration > 0 && <span>{formatDuration(project.duration)}</span>}
          <span>{project.create_time}</span>
        </div>
        {project.reason && <div className="oc-project-reason">{project.reason}</div>}
      </div>
      <div className="oc-project-actions">
        {project.url && <Button minimal icon="play" text="播放" onClick={() => window.open(project.url, '_blank', 'noopener')} />}
        <Button icon="edit" text="打开分镜" onClick={() => screen.open(project)} data-testid="oneclick-project-open" />
        <Button minimal intent="danger" icon="trash" onClick={onDelete} aria-label="删除" data-testid="oneclick-project-delete" />
      </div>
    </div>
  );
}
