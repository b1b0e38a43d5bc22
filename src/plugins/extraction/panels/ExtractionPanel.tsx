/**
 * /store/extraction and /store/audioExtraction (part 2 §2.5, §2.6): a link box (a whole share text is fine) or, for
 * audio, the way selector with a local upload; the free count when above zero; tabs all / processing / failed; a
 * table of records (number, status, info, download and save to assets) that refreshes while one is processing.
 * The state is the screen's (extraction-state.ts); these components render it.
 */
import { Button, Callout, SegmentedControl, Tab, Tabs, Tag } from '@blueprintjs/core';
import { LIMITS, MSG } from '../../../contract';
import { PageHeader, SharedVideoUpload, ShareLinkInput, useScreen, useShareForm, useService, useStore, useValue, type PanelProps } from '../../../core';
import { ExtractionStateToken, type ExtractionScreen, type ExtractionState } from '../extraction-state';
import { AUDIO_EXTRACTION, byUpload, TABS, VIDEO_EXTRACTION, WAYS, type ExtractionKind, type TabId } from '../extraction-view';
import { RecordTable } from './RecordTable';
import './extraction.css';

export const VideoExtractionPanel = (props: PanelProps) => <ExtractionPanel {...props} kind={VIDEO_EXTRACTION} />;
export const AudioExtractionPanel = (props: PanelProps) => <ExtractionPanel {...props} kind={AUDIO_EXTRACTION} />;

function ExtractionPanel({ kind, closed$ }: PanelProps & { kind: ExtractionKind }) {
  const state = useService<ExtractionState>(ExtractionStateToken);
  const screen = useScreen(() => state.open(kind, closed$));
  const records = useStore(screen.records);
  const tab = useValue(screen.tab$);
  const free = records.value?.num ?? 0;
  return (
    <div className="ex-page" data-testid="extraction" data-route={kind.route}>
      <div className="ex-inner">
        <PageHeader icon={kind.icon} title={kind.title} subtitle={kind.subtitle}>
          <div className="ex-price">
            {free > 0 && (
              <Tag intent="success" round size="large" icon="star" data-testid="extraction-free">
                今日免费 {free} 次
              </Tag>
            )}
            <Tag minimal round size="large" icon="dollar">
              每次 {LIMITS.extractionCredits} 积分
            </Tag>
          </div>
        </PageHeader>

        {records.value?.parse_ready === false && (
          <Callout intent="primary" icon="link" className="ex-callout" data-testid="extraction-no-parser">
            {MSG.parseLinksOffline}
          </Callout>
        )}
        <ExtractionForm screen={screen} />

        <Tabs id={`ex-tabs-${kind.material}`} selectedTabId={tab} onChange={(id) => screen.selectTab(id as TabId)} className="ex-tabs">
          {TABS.map((t) => (
            <Tab key={t.id} id={t.id} title={t.title} data-testid={`extraction-tab-${t.id}`} />
          ))}
        </Tabs>

        <RecordTable screen={screen} />
      </div>
    </div>
  );
}

/** The link box, or for audio the way selector and (本地上传) the upload box; Enter or the button submits. */
function ExtractionForm({ screen }: { screen: ExtractionScreen }) {
  const { kind } = screen;
  const { way, text, video, uploading, uploadRound, submitting, start } = useShareForm(screen.form);
  return (
    <form className="share-form" onSubmit={start}>
      {kind.hasWays && (
        <SegmentedControl
          className="share-ways"
          options={WAYS.map((w) => ({ value: String(w.value), label: w.label }))}
          value={String(way)}
          onValueChange={(v) => screen.form.way$.next(Number(v))}
          data-testid="extraction-way"
        />
      )}
      {byUpload(kind, way) ? (
        <div className="share-upload">
          <SharedVideoUpload
            round={uploadRound}
            onVideo={(file) => screen.form.video$.next(file)}
            onBusyChange={(busy) => screen.form.uploading$.next(busy)}
            testId="extraction-upload"
          />
          <Button type="submit" intent="primary" size="large" icon="music" text={kind.start} loading={submitting} disabled={uploading || !video} data-testid="extraction-start" />
        </div>
      ) : (
        <div className="share-link">
          <ShareLinkInput value={text} onChange={(t) => screen.form.text$.next(t)} testId="extraction-link" />
          <Button type="submit" intent="primary" size="large" icon={kind.icon} text={kind.start} loading={submitting} data-testid="extraction-start" />
        </div>
      )}
    </form>
  );
}
