/**
 * /explosiveAnalysis/video: a link or an upload → the job reads the copy and the chat engine analyses it; the analysis
 * is rendered part by part, then 仿写 for a persona and product gives variants to edit and take to /create.
 */
import { Button, Callout, Spinner, Tag } from '@blueprintjs/core';
import { ReplicaStatus, type ReplicaVideo } from '../../../contract';
import { PageHeader, ShareVideoForm, ToolPage, metaLine, useAskedRecord, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import { ReplicaStateToken, type ReplicaState, type VideoScreen } from '../replica-state';
import { INDEX_ROUTE, isOpen, statusOf, videoTitle, WAYS } from '../replica-view';
import { AnalysisView } from './AnalysisView';
import { ChatMissing, Picker, VariantsView } from './common';
import './replica.css';

export default function VideoPanel({ query, closed$ }: PanelProps) {
  const screen = useOpenedScreen(ReplicaStateToken, (state: ReplicaState) => state.openVideo(closed$));
  const engine = useStore(screen.engine).value;
  useAskedRecord(query.id, screen);
  return (
    <ToolPage prefix="rp" testId="replica-video" main={<Result screen={screen} />} side={<Recent screen={screen} />}>
      <PageHeader icon="video" title="爆款视频拆解" subtitle="粘贴链接或上传视频，拆解它为什么火，再按你的人设和产品仿写">
        <div className="rp-head-tags">
          {engine && <Tag minimal round size="large" icon="dollar">每次拆解 {engine.video_credits} 积分 · 仿写 {engine.answer_credits} 积分</Tag>}
          <a className="rp-link" href={`#${INDEX_ROUTE}`}>超级复刻首页</a>
        </div>
      </PageHeader>
      <ChatMissing screen={screen} />
      <VideoForm screen={screen} />
    </ToolPage>
  );
}

function VideoForm({ screen }: { screen: VideoScreen }) {
  return <ShareVideoForm form={screen.form} ways={WAYS} submit={{ text: '开始拆解', icon: 'search-template' }} testId="replica" />;
}

function Result({ screen }: { screen: VideoScreen }) {
  const r = useStore(screen.current).value;
  const busy = useValue(screen.busy$);
  if (!r) {
    return (
      <section className="rp-card rp-result rp-center" data-testid="replica-result">
        <p className="rp-muted">上传或粘贴一条爆款视频，拆解结果会显示在这里。</p>
      </section>
    );
  }
  const st = statusOf(r);
  return (
    <section className="rp-card rp-result" data-testid="replica-result" data-status={r.status}>
      <header className="rp-result-head">
        {r.cover && <img className="rp-cover" src={r.cover} alt="" data-testid="replica-cover" />}
        <strong className="rp-title">{videoTitle(r)}</strong>
        <Tag minimal round intent={st.intent}>{st.text}</Tag>
        <span className="rp-muted">{r.create_time}</span>
      </header>
      {isOpen(r) && (
        <div className="rp-reading">
          <Spinner size={20} />
          <span>正在提取文案并拆解结构…</span>
        </div>
      )}
      {r.status === ReplicaStatus.Failed && <Callout intent="danger" icon="error">{r.reason}</Callout>}
      {r.analysis && (
        <>
          <AnalysisView analysis={r.analysis} />
          <details className="rp-copy">
            <summary>原视频文案</summary>
            <p>{r.text}</p>
          </details>
          <section className="rp-mimic">
            <h3>仿写成我的</h3>
            <Picker screen={screen} />
            <Button intent="primary" icon="clean" text="仿写" loading={busy} onClick={() => void screen.mimic()} data-testid="replica-mimic" />
            <VariantsView variants={screen.variants} screen={screen} />
          </section>
        </>
      )}
    </section>
  );
}

function Recent({ screen }: { screen: VideoScreen }) {
  const list = useStore(screen.recent).value?.list ?? [];
  const selected = useValue(screen.selected$);
  return (
    <aside className="rp-card rp-recent" data-testid="replica-recent">
      <h3>拆解记录</h3>
      {!list.length && <p className="rp-muted">暂无记录</p>}
      <ul>
        {list.map((r: ReplicaVideo) => (
          <li key={r.id} className={r.id === selected ? 'active' : ''}>
            <button type="button" className="rp-pick" onClick={() => screen.select(r.id)}>
              {r.cover && <img className="rp-pick-cover" src={r.cover} alt="" />}
              <span className="rp-title">{videoTitle(r)}</span>
              <span className="rp-muted">{metaLine(statusOf(r).text, r.analysis && `${Math.round(r.analysis.score)} 分`)}</span>
            </button>
            <Button variant="minimal" size="small" icon="trash" aria-label="删除" onClick={() => screen.remove(r)} />
          </li>
        ))}
      </ul>
    </aside>
  );
}
