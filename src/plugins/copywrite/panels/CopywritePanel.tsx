/**
 * /copywrite/index: paste a share text (or upload a video), submit, and read the record's copy — its source, the
 * whole text, the timed sentences — then copy, edit, save, take it to /create or rewrite it (二创). The state is the
 * screen's (copywrite-state.ts); these components render it.
 */
import { useEffect } from 'react';
import { Button, SegmentedControl, Tag } from '@blueprintjs/core';
import { CopywriteType, LIMITS } from '../../../contract';
import { PageHeader, SharedVideoUpload, ShareLinkInput, useScreen, useShareForm, useService, useStore, type PanelProps } from '../../../core';
import { CopywriteStateToken, type CopywriteScreen, type CopywriteState } from '../copywrite-state';
import { TRACE_ROUTE, WAYS } from '../copywrite-view';
import { CopyResult } from './CopyResult';
import { RecentList } from './RecentList';
import './copywrite.css';

export default function CopywritePanel({ query, closed$ }: PanelProps) {
  const state = useService<CopywriteState>(CopywriteStateToken);
  const screen = useScreen(() => state.open(closed$));
  const recent = useStore(screen.recent);
  const free = recent.value?.num ?? 0;
  // A record re-opened from the history (/copywrite/index?id=…), also while the screen is already open.
  const asked = Number(query.id);
  useEffect(() => {
    if (asked > 0) screen.select(asked);
  }, [asked, screen]);
  return (
    <div className="cw-page" data-testid="copywrite">
      <div className="cw-inner">
        <PageHeader icon="clipboard" title="提取文案" subtitle="粘贴抖音、快手、小红书的分享链接或上传视频，一键提取口播文案">
          <div className="cw-price">
            {free > 0 && (
              <Tag intent="success" round size="large" icon="star" data-testid="copywrite-free">
                今日免费 {free} 次
              </Tag>
            )}
            <Tag minimal round size="large" icon="dollar">
              每次 {LIMITS.copywrite.credits} 积分
            </Tag>
            <a className="cw-trace-link" href={`#${TRACE_ROUTE}`} data-testid="copywrite-trace-link">
              历史记录
            </a>
          </div>
        </PageHeader>
        <CopyForm screen={screen} />
        <div className="cw-body">
          <CopyResult screen={screen} />
          <RecentList screen={screen} />
        </div>
      </div>
    </div>
  );
}

/** The way (link or upload), the link box or the upload box; Enter or the button submits. */
function CopyForm({ screen }: { screen: CopywriteScreen }) {
  const { way, text, video, uploading, uploadRound, submitting, start } = useShareForm(screen.form);
  return (
    <form className="share-form" onSubmit={start}>
      <SegmentedControl
        className="share-ways"
        options={WAYS.map((w) => ({ value: String(w.value), label: w.label }))}
        value={String(way)}
        onValueChange={(v) => screen.form.way$.next(Number(v))}
        data-testid="copywrite-way"
      />
      {way === CopywriteType.Upload ? (
        <div className="share-upload">
          <SharedVideoUpload
            round={uploadRound}
            onVideo={(file) => screen.form.video$.next(file)}
            onBusyChange={(busy) => screen.form.uploading$.next(busy)}
            testId="copywrite-upload"
          />
          <Button type="submit" intent="primary" size="large" icon="clipboard" text="提取文案" loading={submitting} disabled={uploading || !video} data-testid="copywrite-start" />
        </div>
      ) : (
        <div className="share-link">
          <ShareLinkInput value={text} onChange={(t) => screen.form.text$.next(t)} testId="copywrite-link" />
          <Button type="submit" intent="primary" size="large" icon="clipboard" text="提取文案" loading={submitting} data-testid="copywrite-start" />
        </div>
      )}
    </form>
  );
}
