/**
 * /explosiveAnalysis/user: a profile link (read by the link-parse engine when it can) and/or a pasted profile and post
 * descriptions → positioning, audience, pillars, what the top posts share, a persona draft to keep.
 */
import { Button, Callout, InputGroup, TextArea } from '@blueprintjs/core';
import { LIMITS, type AccountAnalysis } from '../../../contract';
import { PageHeader, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import { ReplicaStateToken, type AccountScreen, type ReplicaState } from '../replica-state';
import { INDEX_ROUTE, PERSONAS_ROUTE } from '../replica-view';
import { ChatMissing, Part, Pill, RecentPicks } from './common';
import './replica.css';

export default function AccountPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(ReplicaStateToken, (state: ReplicaState) => state.openAccount(closed$));
  const link = useValue(screen.link$);
  const description = useValue(screen.description$);
  const busy = useValue(screen.busy$);
  const result = useValue(screen.result$);
  const engine = useStore(screen.engine).value;
  return (
    <div className="rp-page" data-testid="replica-account">
      <div className="rp-inner">
        <PageHeader icon="person" title="账号定位分析" subtitle="粘贴对标账号的主页链接，或它的简介和近期作品描述，读出它的定位与打法">
          <div className="rp-head-tags">
            <a className="rp-link" href={`#${INDEX_ROUTE}`}>超级复刻首页</a>
          </div>
        </PageHeader>
        <ChatMissing screen={screen} />
        <section className="rp-card rp-ask">
          <InputGroup
            fill
            leftIcon="link"
            value={link}
            maxLength={LIMITS.linkMaxChars}
            disabled={engine?.profiles === false}
            placeholder={engine?.profiles === false ? '主页链接暂不可用：链接解析服务尚未开通主页读取' : '抖音或 TikTok 账号主页的分享链接'}
            onChange={(e) => screen.link$.next(e.target.value)}
            data-testid="replica-profile-link"
          />
          {engine?.profiles === false && (
            <Callout intent="primary" compact icon="info-sign" data-testid="replica-profile-unavailable">
              读取主页需要管理员开通链接解析服务；现在请把账号简介和近期作品描述粘贴在下面。
            </Callout>
          )}
          <TextArea
            fill
            value={description}
            maxLength={LIMITS.replica.descriptionMaxChars}
            placeholder={'例如：\n简介：成分党护肤博主，只讲实测…\n近期作品：熬夜脸急救三步（点赞 12 万）；平价面霜横评（点赞 8 万）…'}
            onChange={(e) => screen.description$.next(e.target.value)}
            data-testid="replica-description"
          />
          <div className="rp-actions">
            <span className="rp-muted">{[...description].length}/{LIMITS.replica.descriptionMaxChars}</span>
            <Button intent="primary" icon="search" text={`分析账号${engine ? `（${engine.answer_credits} 积分）` : ''}`} loading={busy} onClick={() => void screen.analyse()} data-testid="replica-analyse-account" />
          </div>
        </section>
        <div className="rp-body">
          {result ? <AccountResult screen={screen} analysis={result} /> : <section className="rp-card rp-center rp-muted">分析结果会显示在这里。</section>}
          <History screen={screen} />
        </div>
      </div>
    </div>
  );
}

function AccountResult({ screen, analysis: a }: { screen: AccountScreen; analysis: AccountAnalysis }) {
  const saved = useValue(screen.savedDraft$);
  const busy = useValue(screen.busy$);
  const p = a.persona;
  return (
    <section className="rp-card rp-analysis" data-testid="replica-account-result">
      <Part title="账号定位" text={a.positioning} />
      <Part title="目标人群" text={a.audience} />
      <Part title="内容支柱">
        <div className="rp-chips">{a.pillars.map((x, i) => <Pill key={i} intent="primary">{x}</Pill>)}</div>
      </Part>
      <Part title="爆款共同点" text={a.top_posts} />
      <Part title={<>人设草稿：{p.name}</>} className="rp-draft">
        <dl>
          {([['行业', p.industry], ['人群', p.audience], ['语气', p.tone], ['卖点', p.selling_points], ['口头禅', p.catchphrases], ['禁用词', p.taboo]] as const).filter(([, v]) => v).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        {saved ? (
          <a className="rp-link" href={`#${PERSONAS_ROUTE}`}>已保存，去我的人设查看</a>
        ) : (
          <Button icon="floppy-disk" text="保存到我的人设" loading={busy} onClick={() => void screen.saveDraft()} data-testid="replica-save-draft" />
        )}
      </Part>
    </section>
  );
}

function History({ screen }: { screen: AccountScreen }) {
  const list = useStore(screen.history).value?.list ?? [];
  return (
    <aside className="rp-card rp-recent">
      <RecentPicks heading="分析记录" picks={list.map((r) => ({ key: r.id, title: r.analysis.positioning, meta: r.create_time, onPick: () => screen.show(r.analysis) }))} />
    </aside>
  );
}
