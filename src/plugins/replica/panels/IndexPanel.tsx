/** /explosiveAnalysis: topic ideas and a script for a persona and product, the four tools, recent analyses and scripts. */
import { Button, Icon, InputGroup, type IconName } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { HTMLSelect, PageHeader, ToolPage, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import { ReplicaStateToken, type IndexScreen, type ReplicaState } from '../replica-state';
import { CHILDREN, STYLES, videoTitle } from '../replica-view';
import { ChatMissing, Picker, RecentPicks, VariantsView } from './common';
import './replica.css';

export default function IndexPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(ReplicaStateToken, (state: ReplicaState) => state.openIndex(closed$));
  return (
    <ToolPage prefix="rp" testId="replica-index" main={<Writer screen={screen} />} side={<RecentWork screen={screen} />}>
      <PageHeader icon="duplicate" title="超级复刻" subtitle="拆解爆款、读懂对标账号，按你的人设和产品写出同款脚本" />
      <ChatMissing screen={screen} />
      <nav className="rp-tools">
        {CHILDREN.map((c) => (
          <a key={c.route} className="rp-card rp-tool" href={`#${c.route}`} data-testid="replica-tool">
            <Icon icon={c.icon as IconName} size={20} />
            <strong>{c.title}</strong>
            <span className="rp-muted">{c.text}</span>
          </a>
        ))}
      </nav>
    </ToolPage>
  );
}

function Writer({ screen }: { screen: IndexScreen }) {
  const busy = useValue(screen.busy$);
  const topics = useValue(screen.topics$);
  const topic = useValue(screen.topic$);
  const seconds = useValue(screen.seconds$);
  const style = useValue(screen.style$);
  return (
    <section className="rp-card rp-writer">
      <h3>选题与脚本</h3>
      <Picker screen={screen} />
      <Button icon="lightbulb" text="给我选题灵感" loading={busy} onClick={() => void screen.suggest()} data-testid="replica-topics" />
      {topics.length > 0 && (
        <ul className="rp-topics" data-testid="replica-topic-list">
          {topics.map((t, i) => (
            <li key={i}>
              <button type="button" className={t.title === topic ? 'active' : ''} onClick={() => screen.topic$.next(t.title)}>
                <strong>{t.title}</strong>
                <span className="rp-muted">{t.angle}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="rp-gen">
        <InputGroup fill value={topic} maxLength={LIMITS.replica.topicMaxChars} placeholder="选题，例如：熬夜脸急救三步" onChange={(e) => screen.topic$.next(e.target.value)} data-testid="replica-topic" />
        <HTMLSelect value={seconds} onChange={(e) => screen.seconds$.next(Number(e.target.value))} aria-label="时长">
          {LIMITS.replica.scriptSeconds.map((s) => (
            <option key={s} value={s}>
              {s} 秒
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect value={style} onChange={(e) => screen.style$.next(e.target.value as typeof style)} aria-label="风格">
          {STYLES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </HTMLSelect>
        <Button intent="primary" icon="edit" text="写脚本" loading={busy} onClick={() => void screen.generate()} data-testid="replica-generate" />
      </div>
      <VariantsView variants={screen.variants} screen={screen} />
    </section>
  );
}

function RecentWork({ screen }: { screen: IndexScreen }) {
  const videos = useStore(screen.videos).value?.list ?? [];
  const scripts = useStore(screen.scripts).value?.list ?? [];
  return (
    <aside className="rp-card rp-recent" data-testid="replica-index-recent">
      <RecentPicks
        heading="最近拆解"
        picks={videos.map((r) => ({
          key: r.id,
          title: videoTitle(r),
          meta: <>{r.analysis ? `${Math.round(r.analysis.score)} 分 · ` : ''}{r.create_time}</>,
          onPick: () => screen.openVideo(r.id),
        }))}
      />
      <RecentPicks
        heading="最近脚本"
        picks={scripts.map((s) => ({
          key: s.id,
          title: <>{s.kind === 'mimic' ? '仿写' : '脚本'} · {s.topic || s.variants[0]?.title}</>,
          meta: <>{s.persona_name}{s.product_name ? ` × ${s.product_name}` : ''}</>,
          onPick: () => screen.variants.set(s.variants),
        }))}
      />
    </aside>
  );
}
