import { inject, injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { API, AudioExtractType, MSG, type ExtractionRecord, type CallResponse } from '../../contract';
import { OpenScreen, RemoteStore, ShareForm, TIMINGS, TOKENS, runBusyItem, type ScreenServices } from '../../core';
import { anyProcessing, byUpload, saveName, TABS, type ExtractionKind, type TabId } from './extraction-view';

export const ExtractionStateToken = Symbol.for('extraction.State');

/** How many records a tab shows. */
export const PAGE = 50;

/** Makes the state of each open extraction screen. */
@injectable()
export class ExtractionState {
  constructor(@inject(TOKENS.ScreenServices) private readonly services: ScreenServices) {}

  /** One screen's state, from its open until `closed$` emits or it is disposed (a reopened screen starts afresh). */
  open(kind: ExtractionKind, closed$?: Observable<unknown>): ExtractionScreen {
    return new ExtractionScreen(kind, this.services, closed$);
  }
}

type RecordList = CallResponse<typeof API.extraction.videoList>;

/**
 * /store/extraction or /store/audioExtraction (part 2 §2.5, §2.6, §8): the link or (audio) the uploaded video, the
 * tab, the records of that tab (asked again every TIMINGS.extractionPollMs while one is processing), submit, and
 * save a finished record to the material library.
 */
export class ExtractionScreen extends OpenScreen {
  readonly tab$ = new BehaviorSubject<TabId>('all');
  readonly form: ShareForm;
  /** The records being saved to the material library. */
  readonly saving$ = new BehaviorSubject<ReadonlySet<number>>(new Set());
  readonly records: RemoteStore<RecordList>;

  constructor(
    readonly kind: ExtractionKind,
    private readonly s: ScreenServices,
    closed$?: Observable<unknown>,
  ) {
    super();
    this.form = new ShareForm(AudioExtractType.Link, {
      ...s,
      byUpload: (way) => byUpload(kind, way),
      send: (source) => this.send(source),
      sent: () => (this.tab$.value === 'failed' ? this.selectTab('all') : this.records.reload()),
    });
    this.records = new RemoteStore(
      (signal) => {
        const status = TABS.find((t) => t.id === this.tab$.value)!.status;
        return s.api.call(kind.list, { page: 1, limit: PAGE, ...(status ? { status } : {}) }, { silent: true, signal });
      },
      { poll: { polling: s.polling, intervalMs: TIMINGS.extractionPollMs, keepGoing: (v) => anyProcessing(v.list) } },
    );
    this.ownAndLoad(closed$, [this.records]);
  }

  /** Another tab starts empty (a spinner, not the last tab's rows). */
  selectTab(tab: TabId): void {
    if (tab === this.tab$.value) return;
    this.tab$.next(tab);
    this.records.reload({ clear: true });
  }

  /** 开始解析 / 开始提取: the problem is said, else sent; a success empties the form and shows the new record. */
  start(): Promise<boolean> {
    return this.form.start();
  }

  private async send(source: { fileId: number } | { link: string }): Promise<void> {
    if (!this.kind.hasWays) await this.s.api.call(API.extraction.videoParse, source as { link: string });
    else {
      const params = 'fileId' in source ? { type: AudioExtractType.Upload, file_id: source.fileId } : { type: AudioExtractType.Link, link: source.link };
      await this.s.api.call(API.extraction.audioExtract, params, { silent: this.kind.silentFailures });
    }
  }

  async saveToMaterial(record: ExtractionRecord): Promise<void> {
    await runBusyItem(this.saving$, record.id, async () => {
      await this.s.api.call(API.extraction.saveToMaterial, { type: this.kind.material, source: 'analyse', name: saveName(record.desc), rid: record.id });
      this.s.notifier.success(MSG.savedToMaterial);
    });
  }

}
