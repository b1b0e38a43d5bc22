/**
 * /store/extraction and /store/audioExtraction (part 2 §2.5, §2.6): a link box (a whole share text is fine) or, for
 * audio, the way selector with a local upload; the free count when above zero; tabs all / processing / failed; a
 * table of records (number, status, info, download and save to assets) that refreshes while one is processing.
 * The state is the screen's (extraction-state.ts); these components render it.
 */
import { Callout, Tab, Tabs } from '@blueprintjs/core';
import { LIMITS, MSG } from '../../../contract';
import { PageHeader, PriceTags, ShareVideoForm, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import { ExtractionStateToken, type ExtractionScreen, type ExtractionState } from '../extraction-state';
import { AUDIO_EXTRACTION, TABS, VIDEO_EXTRACTION, WAYS, type ExtractionKind, type TabId } from '../extraction-view';
import { RecordTable } from './RecordTable';
import './extraction.css';

export const VideoExtractionPanel = (props: PanelProps) => <ExtractionPanel {...props} kind={VIDEO_EXTRACTION} />;
export const AudioExtractionPanel = (props: PanelProps) => <ExtractionPanel {...props} kind={AUDIO_EXTRACTION} />;

function ExtractionPanel({ kind, closed$ }: PanelProps & { kind: ExtractionKind }) {
  const screen = useOpenedScreen(ExtractionStateToken, (state: ExtractionState) => state.open(kind, closed$));
  const records = useStore(screen.records);
  const tab = useValue(screen.tab$);
  const free = records.value?.num ?? 0;
  return (
    <div className="ex-page" data-testid="extraction" data-route={kind.route}>
      <div className="ex-inner">
        <PageHeader icon={kind.icon} title={kind.title} subtitle={kind.subtitle}>
          <div className="ex-price">
            <PriceTags free={free} credits={LIMITS.extractionCredits} freeTestId="extraction-free" />
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
  return <ShareVideoForm form={screen.form} ways={kind.hasWays ? WAYS : undefined} submit={{ text: kind.start, icon: kind.icon, uploadIcon: 'music' }} testId="extraction" />;
}
