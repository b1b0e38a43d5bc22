/**
 * The batch screen's state, one per open screen (BatchState.open): the named things a row may use, the grid (from
 * the template file, an upload or pasted cells) with each row's check by the server's own validator (batch.check),
 * submitting it, and the batch page (its rows followed while any is unfinished; cancel, retry, the zip).
 */
import { inject, injectable } from 'inversify';
import { BehaviorSubject, debounceTime, type Observable } from 'rxjs';
import Papa from 'papaparse';
import { API, LIMITS, MSG, type BatchDetail, type BatchRowCheck, type BatchRowFields, type CallResponse } from '../../contract';
import { OpenScreen, RemoteStore, TIMINGS, TOKENS, leadingGate, runBusy, type ScreenServices } from '../../core';
import { TEMPLATE_EXAMPLE, TEMPLATE_HEADERS, blankRow, resolveRow, rowsFromCells, type Catalog, type GridField, type GridRow } from './batch-view';

export const BatchStateToken = Symbol.for('batch.State');

@injectable()
export class BatchState {
  constructor(@inject(TOKENS.ScreenServices) private readonly s: ScreenServices) {}

  open(batchId: number | undefined, closed$?: Observable<unknown>): BatchScreen {
    return new BatchScreen(this.s, batchId, closed$);
  }
}

/** A row's check as the grid shows it: the error (and which cell it is about) or its price. */
export interface RowCheck {
  error?: string;
  field?: GridField;
  credits: number;
}

function saveBlob(blob: Blob, fileName: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

export class BatchScreen extends OpenScreen {
  readonly catalog: RemoteStore<Catalog>;
  readonly rows$ = new BehaviorSubject<GridRow[]>([]);
  readonly checks$ = new BehaviorSubject<Map<number, RowCheck>>(new Map());
  readonly checking$ = new BehaviorSubject(false);
  readonly name$ = new BehaviorSubject('');
  readonly submitting$ = new BehaviorSubject(false);
  readonly busy$ = new BehaviorSubject(false);
  readonly batchId$: BehaviorSubject<number | null>;
  readonly detail: RemoteStore<BatchDetail | null>;
  readonly batches: RemoteStore<CallResponse<typeof API.batch.list>>;
  private readonly gate = leadingGate(TIMINGS.submitThrottleMs);
  private checkRun = 0;

  constructor(
    private readonly s: ScreenServices,
    batchId: number | undefined,
    closed$?: Observable<unknown>,
  ) {
    super();
    const { api } = s;
    this.batchId$ = new BehaviorSubject<number | null>(batchId ?? null);
    this.catalog = new RemoteStore<Catalog>(async (signal) => {
      const opts = { silent: true, signal };
      const [myAvatars, publicAvatars, myVoices, publicVoices, channels, music] = await Promise.all([
        api.call(API.avatars.list, { source: 1, page: 1, limit: 9999 }, opts),
        api.call(API.avatars.list, { source: 2, page: 1, limit: 9999 }, opts),
        api.call(API.voices.list, { source: 1, page: 1, limit: 9999 }, opts),
        api.call(API.voices.list, { source: 2, page: 1, limit: 9999 }, opts),
        api.call(API.works.videoChannel, {}, opts),
        api.call(API.music.library, {}, opts),
      ]);
      return { avatars: [...myAvatars.list, ...publicAvatars.list], voices: [...myVoices.list, ...publicVoices.list], channels: channels.list, music: music.list };
    });
    this.detail = new RemoteStore<BatchDetail | null>(
      async (signal) => {
        const id = this.batchId$.value;
        return id ? api.call(API.batch.detail, { id }, { silent: true, signal }) : null;
      },
      { poll: { polling: s.polling, intervalMs: TIMINGS.worksPollMs, keepGoing: (d) => !!d && d.counts.queued + d.counts.running > 0 } },
    );
    this.batches = new RemoteStore((signal) => api.call(API.batch.list, { page: 1, limit: 20 }, { silent: true, signal }));
    this.life.add(this.rows$.pipe(debounceTime(300)).subscribe(() => void this.check()));
    this.life.add(this.catalog.remote$.subscribe(() => void this.check()));
    this.ownUntil(closed$, [this.catalog, this.detail, this.batches]);
    this.catalog.reload();
    this.batches.reload();
    if (batchId) this.detail.reload();
  }

  get rows(): GridRow[] {
    return this.rows$.value;
  }

  // ---- the template and the table

  async downloadTemplate(kind: 'xlsx' | 'csv'): Promise<void> {
    const cells = [[...TEMPLATE_HEADERS], TEMPLATE_EXAMPLE];
    if (kind === 'csv') return saveBlob(new Blob(['\ufeff', Papa.unparse(cells)], { type: 'text/csv;charset=utf-8' }), '批量创作模板.csv');
    const { default: writeExcelFile } = await import('write-excel-file/browser');
    saveBlob(await writeExcelFile(cells).toBlob(), '批量创作模板.xlsx');
  }

  /** An uploaded CSV or XLSX becomes the grid (its rows replace the grid's). */
  async load(file: File): Promise<void> {
    try {
      let cells: unknown[][];
      if (/\.xlsx$/i.test(file.name)) {
        const { readSheet } = await import('read-excel-file/browser');
        cells = await readSheet(file);
      } else {
        cells = Papa.parse<string[]>((await file.text()).replace(/^\ufeff/, ''), { skipEmptyLines: true }).data;
      }
      this.take(rowsFromCells(cells));
    } catch {
      this.s.notifier.error(MSG.batchFileUnreadable);
    }
  }

  /** Cells copied from a spreadsheet (tab-separated lines), added to the grid. */
  paste(text: string): void {
    const cells = Papa.parse<string[]>(text, { delimiter: '\t', skipEmptyLines: true }).data;
    const rows = rowsFromCells(cells);
    if (!rows.length) return this.s.notifier.warn(MSG.batchEmpty);
    this.take([...this.rows.filter((r) => r.text || r.name), ...rows]);
  }

  private take(rows: GridRow[]): void {
    if (!rows.length) return this.s.notifier.warn(MSG.batchEmpty);
    if (rows.length > LIMITS.batch.maxRows) this.s.notifier.warn(MSG.batchTooManyRows(LIMITS.batch.maxRows));
    this.rows$.next(rows.slice(0, LIMITS.batch.maxRows));
  }

  edit(key: number, field: GridField, value: string): void {
    this.rows$.next(this.rows.map((r) => (r.key === key ? { ...r, [field]: value } : r)));
  }

  drop(key: number): void {
    this.rows$.next(this.rows.filter((r) => r.key !== key));
  }

  add(): void {
    if (this.rows.length < LIMITS.batch.maxRows) this.rows$.next([...this.rows, blankRow()]);
  }

  // ---- checking and submitting

  /** Each row's names resolved here, the rest checked by the server exactly as /create checks it. */
  private async check(): Promise<void> {
    const catalog = this.catalog.value;
    const rows = this.rows;
    if (!catalog || !rows.length) return this.checks$.next(new Map());
    const run = ++this.checkRun;
    const checks = new Map<number, RowCheck>();
    const sent: { key: number; fields: BatchRowFields }[] = [];
    for (const row of rows) {
      const resolved = resolveRow(row, catalog);
      if ('error' in resolved) checks.set(row.key, { error: resolved.error, field: resolved.field, credits: 0 });
      else sent.push({ key: row.key, fields: resolved.fields });
    }
    this.checking$.next(true);
    try {
      const answer = sent.length ? await this.s.api.call(API.batch.check, { rows: JSON.stringify(sent.map((r) => r.fields)) }, { silent: true }) : { rows: [] as BatchRowCheck[] };
      answer.rows.forEach((c, i) => checks.set(sent[i]!.key, { error: c.error, credits: c.credits }));
    } catch {
      for (const r of sent) checks.set(r.key, { error: MSG.batchRowsInvalid, credits: 0 });
    } finally {
      if (run === this.checkRun) this.checking$.next(false);
    }
    if (run === this.checkRun) this.checks$.next(checks);
  }

  /** Every kept row checked and valid (and the checks are of the rows shown). */
  get ready(): boolean {
    const checks = this.checks$.value;
    return this.rows.length > 0 && this.rows.every((r) => checks.has(r.key) && !checks.get(r.key)!.error);
  }

  async submit(): Promise<void> {
    if (!this.gate()) return;
    if (!this.ready) return this.s.notifier.warn(MSG.batchRejected(this.rows.flatMap((r, i) => { const e = this.checks$.value.get(r.key)?.error; return e ? [{ index: i + 1, error: e }] : []; })));
    const catalog = this.catalog.value!;
    const fields = this.rows.map((r) => resolveRow(r, catalog)).flatMap((r) => ('fields' in r ? [r.fields] : []));
    let id = 0;
    const ok = await runBusy(this.submitting$, async () => {
      id = (await this.s.api.call(API.batch.create, { name: this.name$.value.trim(), rows: JSON.stringify(fields) })).id;
    });
    if (!ok) return;
    this.s.notifier.success(MSG.submitSucceeded);
    this.rows$.next([]);
    this.openBatch(id);
    void this.s.auth.refreshProfile().catch(() => undefined);
  }

  // ---- the batch page

  openBatch(id: number | null): void {
    this.batchId$.next(id);
    this.s.navigation.navigate('/batch', id ? { id } : {}, { replace: true });
    this.detail.reload({ clear: true });
    this.batches.reload();
  }

  async cancel(): Promise<void> {
    const id = this.batchId$.value;
    if (!id) return;
    let cancelled = 0;
    if (await runBusy(this.busy$, async () => void ({ cancelled } = await this.s.api.call(API.batch.cancel, { id })))) {
      this.s.notifier.success(`已取消 ${cancelled} 行，积分已退回`);
      this.detail.reload();
      void this.s.auth.refreshProfile().catch(() => undefined);
    }
  }

  async retry(): Promise<void> {
    const id = this.batchId$.value;
    if (id && (await runBusy(this.busy$, () => this.s.api.call(API.batch.retry, { id })))) {
      this.s.notifier.success(MSG.submitSucceeded);
      this.detail.reload();
    }
  }

  /** The zip of the finished rows, saved under the batch's name. */
  async downloadZip(): Promise<void> {
    const detail = this.detail.value;
    if (!detail) return;
    let url = '';
    if (!(await runBusy(this.busy$, async () => void ({ url } = await this.s.api.call(API.batch.zip, { id: detail.id }))))) return;
    const a = document.createElement('a');
    a.href = url;
    a.download = `${detail.name}.zip`;
    a.click();
  }
}
