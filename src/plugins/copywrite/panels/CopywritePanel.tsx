/**
 * /copywrite/index: paste a share text (or upload a video), submit, and read the record's copy — its source, the
 * whole text, the timed sentences — then copy, edit, save, take it to /create or rewrite it (二创). The state is the
 * screen's (copywrite-state.ts); these components render it.
 */
import { LIMITS } from '../../../contract';
import { PageHeader, PriceTags, ShareVideoForm, ToolPage, useAskedRecord, useOpenedScreen, useStore, type PanelProps } from '../../../core';
import { CopywriteStateToken, type CopywriteScreen, type CopywriteState } from '../copywrite-state';
import { TRACE_ROUTE, WAYS } from '../copywrite-view';
import { CopyResult } from './CopyResult';
import { RecentList } from './RecentList';
import './copywrite.css';

export default function CopywritePanel({ query, closed$ }: PanelProps) {
  const screen = useOpenedScreen(CopywriteStateToken, (state: CopywriteState) => state.open(closed$));
  const recent = useStore(screen.recent);
  const free = recent.value?.num ?? 0;
  // A record re-opened from the history (/copywrite/index?id=…).
  useAskedRecord(query.id, screen);
  return (
    <ToolPage prefix="cw" testId="copywrite" main={<CopyResult screen={screen} />} side={<RecentList screen={screen} />}>
      <PageHeader icon="clipboard" title="提取文案" subtitle="粘贴抖音、快手、小红书的分享链接或上传视频，一键提取口播文案">
        <div className="cw-price">
          <PriceTags free={free} credits={LIMITS.copywrite.credits} freeTestId="copywrite-free" />
          <a className="cw-trace-link" href={`#${TRACE_ROUTE}`} data-testid="copywrite-trace-link">
            历史记录
          </a>
        </div>
      </PageHeader>
      <CopyForm screen={screen} />
    </ToolPage>
  );
}

/** The way (link or upload), the link box or the upload box; Enter or the button submits. */
function CopyForm({ screen }: { screen: CopywriteScreen }) {
  return <ShareVideoForm form={screen.form} ways={WAYS} submit={{ text: '提取文案', icon: 'clipboard' }} testId="copywrite" />;
}
