/**
 * /store/wsImage, text to image (part 2 §2.8, §4, §5, §9): a description with three suggested prompts, the ratio, an
 * optional reference picture, the count and the price behind a confirm; a preview carousel (2 s) with download and
 * save to material; the history (refreshed every 15 s while open): done records choose/download/delete, failed ones
 * delete only with their reason, others a spinner. Without an image engine the screen says so and cannot generate.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, FormGroup, Icon, NonIdealState, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { API, LIMITS, MSG, type ImageRecord, type PromptSuggestion } from '../../../contract';
import {
  ConfirmAlert, ConfirmDelete, TOKENS, UploadBox, leadingGate, useAction, useDeletion, useRemote, useRemoteList, useService,
  type ApiClient, type AuthService, type Notifier, type PanelProps, TIMINGS,
} from '../../../core';
import { COUNTS, EMPTY_FORM, cost, formOf, imageFileName, pickPrompts, ratioShape, recordState, type ImageForm } from '../imagegen-view';
import './imagegen.css';

/** Fetches a stored picture and hands it to the browser's download under a readable name. */
async function saveImage(url: string, fileName: string): Promise<void> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`download status ${res.status}`);
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

export default function ImageGenPanel({ closed$ }: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const auth = useService<AuthService>(TOKENS.AuthService);
  const notifier = useService<Notifier>(TOKENS.Notifier);

  const engine = useRemote('engine', (signal) => api.call(API.imagegen.engine, {}, { silent: true, signal }));
  const configured = engine.value?.configured === 1;
  const prompts = useRemoteList<PromptSuggestion>('prompts', async (signal) => (await api.call(API.imagegen.prompts, { type: 'text' }, { silent: true, signal })).list);
  const records = useRemoteList<ImageRecord>(
    'records',
    async (signal) => (await api.call(API.imagegen.list, { type: 'text', page: 1, limit: LIMITS.historyLimit }, { silent: true, signal })).list,
    { poll: { intervalMs: TIMINGS.generationPollMs, keepGoing: () => true, stop$: closed$ } },
  );

  const [form, setForm] = useState<ImageForm>(EMPTY_FORM);
  const patch = (change: Partial<ImageForm>) => setForm((f) => ({ ...f, ...change }));
  const [suggestions, setSuggestions] = useState<PromptSuggestion[]>([]);
  useEffect(() => setSuggestions(pickPrompts(prompts.list)), [prompts.list]);
  const [uploading, setUploading] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const submitting = useAction();
  const gate = useRef(leadingGate(TIMINGS.submitThrottleMs));

  // The preview shows the chosen record, else the newest finished one.
  const [chosenId, setChosenId] = useState<number | null>(null);
  const finished = records.list.filter((r) => recordState(r) === 'done');
  const previewed = records.list.find((r) => r.id === chosenId && recordState(r) === 'done') ?? finished[0];

  const ask = () => {
    if (!gate.current()) return;
    if (!form.text.trim()) return notifier.warn(MSG.promptRequired);
    setConfirming(true);
  };
  const generate = async () => {
    const ok = await submitting.run(() => api.call(API.imagegen.create, { type: 'text', text: form.text.trim(), ratio: form.ratio, num: form.num, image: form.image || undefined }), {
      success: '已提交，图片生成后会显示在生成记录中',
    });
    setConfirming(false);
    if (!ok) return;
    setChosenId(null);
    records.reload();
    void auth.refreshProfile().catch(() => undefined);
  };

  const choose = (record: ImageRecord) => {
    setForm(formOf(record));
    setChosenId(record.id);
  };
  const download = async (record: ImageRecord, indexes: number[]) => {
    try {
      for (const i of indexes) await saveImage(record.url[i]!, imageFileName(record.text, i, record.url[i]!));
      notifier.success(MSG.downloadSucceededTool);
    } catch {
      notifier.error(MSG.downloadFailedTool);
    }
  };
  const saving = useAction();
  const saveToMaterial = (record: ImageRecord, index: number) => void saving.run(() => api.call(API.imagegen.save, { id: record.id, index }), { success: MSG.savedToMaterial });
  const deletion = useDeletion<ImageRecord>(
    (record) => api.call(API.imagegen.remove, { id: record.id }),
    () => records.reload(),
  );

  return (
    <div className="ig-page" data-testid="imagegen-panel">
      <div className="ig-inner">
        <header className="ig-head">
          <h2 className="ig-title">
            <Icon icon="media" size={20} /> 文生图
          </h2>
          <p className="ig-subtitle">输入一段描述，生成高清创意图片；每张 {LIMITS.imageCreditsEach} 积分，生成失败的图片退回积分。</p>
        </header>
        {engine.loaded && !configured && (
          <Callout intent="warning" icon="offline" className="ig-missing" data-testid="imagegen-engine-missing">
            {MSG.imageEngineMissing}
          </Callout>
        )}

        <div className="ig-layout">
          <section className="ig-card ig-form" aria-label="生成设置">
            <FormGroup label="描述词" labelFor="ig-text" className="ig-group">
              <div className="ig-text-wrap">
                <TextArea
                  id="ig-text"
                  value={form.text}
                  onChange={(e) => patch({ text: e.target.value })}
                  maxLength={LIMITS.promptMaxChars}
                  rows={4}
                  fill
                  placeholder="描述你想要的画面：主体、场景、风格、光线……"
                  data-testid="imagegen-text"
                />
                <span className="ig-counter">
                  {[...form.text].length}/{LIMITS.promptMaxChars}
                </span>
              </div>
            </FormGroup>
            <div className="ig-suggest" data-testid="imagegen-suggestions">
              <div className="ig-suggest-head">
                <span>
                  <Icon icon="lightbulb" size={12} /> 试试这些
                </span>
                <Button variant="minimal" size="small" icon="refresh" text="换一换" onClick={() => setSuggestions(pickPrompts(prompts.list))} disabled={prompts.list.length <= LIMITS.recommendCount} data-testid="imagegen-suggest-refresh" />
              </div>
              {suggestions.map((p) => (
                <button key={p.id} type="button" className="ig-suggestion" title={p.content} onClick={() => patch({ text: p.content })} data-testid="imagegen-suggestion">
                  {p.content}
                </button>
              ))}
            </div>

            <FormGroup label="图片比例" className="ig-group">
              <div className="ig-ratios" role="radiogroup" aria-label="图片比例">
                {LIMITS.imageRatios.map((ratio) => {
                  const shape = ratioShape(ratio);
                  return (
                    <button
                      key={ratio}
                      type="button"
                      role="radio"
                      aria-checked={form.ratio === ratio}
                      className={`ig-ratio${form.ratio === ratio ? ' active' : ''}`}
                      onClick={() => patch({ ratio })}
                      data-testid={`imagegen-ratio-${ratio}`}
                    >
                      <span className="ig-ratio-shape" style={shape} />
                      {ratio}
                    </button>
                  );
                })}
              </div>
            </FormGroup>

            <FormGroup label="参考图（可选）" className="ig-group">
              {form.image ? (
                <div className="ig-reference" data-testid="imagegen-reference-chosen">
                  <img src={form.image} alt="参考图" />
                  <Button className="ig-reference-remove" size="small" icon="cross" aria-label="移除参考图" title="移除参考图" onClick={() => patch({ image: '' })} data-testid="imagegen-reference-remove" />
                </div>
              ) : (
                <UploadBox
                  type="image"
                  accept=".png,.jpg,.jpeg"
                  compact
                  check={(file) => (file.size > LIMITS.image.maxBytes ? MSG.imageTooLarge : null)}
                  title="上传参考图"
                  hint={`PNG、JPG，不超过 10MB，短边不小于 ${LIMITS.image.minSide} 像素`}
                  onUploaded={(file) => patch({ image: file.url })}
                  onBusyChange={setUploading}
                  data-testid="imagegen-reference"
                />
              )}
            </FormGroup>

            <FormGroup label="生成数量" className="ig-group">
              <ButtonGroup fill>
                {COUNTS.map((n) => (
                  <Button key={n} text={`${n} 张`} active={form.num === n} intent={form.num === n ? 'primary' : 'none'} variant={form.num === n ? 'solid' : 'outlined'} onClick={() => patch({ num: n })} data-testid={`imagegen-count-${n}`} />
                ))}
              </ButtonGroup>
            </FormGroup>

            <Button
              className="ig-generate"
              intent="primary"
              size="large"
              icon="clean"
              fill
              text={`立即生成 · ${cost(form.num)} 积分`}
              disabled={!configured || uploading}
              loading={submitting.busy}
              onClick={ask}
              data-testid="imagegen-generate"
            />
          </section>

          <div className="ig-right">
            <Preview record={previewed} closed$={closed$} onDownload={download} onSave={saveToMaterial} saving={saving.busy} />
            <section className="ig-card ig-history" aria-label="生成记录">
              <div className="ig-history-head">
                <h3>生成记录</h3>
                <Button variant="minimal" size="small" icon="refresh" text="刷新" loading={records.loading && records.loaded} onClick={records.reload} data-testid="imagegen-refresh" />
              </div>
              {!records.loaded ? (
                <div className="ig-center">{records.error ? <NonIdealState icon="error" description={records.error} /> : <Spinner size={24} />}</div>
              ) : records.list.length === 0 ? (
                <p className="ig-muted">还没有生成记录，写下描述词试试吧。</p>
              ) : (
                <div className="ig-records" data-testid="imagegen-records">
                  {records.list.map((r) => (
                    <RecordCard key={r.id} record={r} active={r.id === previewed?.id} onChoose={choose} onDownload={(rec) => void download(rec, rec.url.map((_, i) => i))} onDelete={deletion.ask} />
                  ))}
                </div>
              )}
            </section>
          </div>
        </div>
      </div>

      <ConfirmAlert
        isOpen={confirming}
        busy={submitting.busy}
        icon="media"
        intent="primary"
        title={`确认生成 ${form.num} 张图片？`}
        text={<>将消耗 <b>{cost(form.num)}</b> 积分（每张 {LIMITS.imageCreditsEach} 积分），未生成成功的图片会退回积分。</>}
        confirmText="确认生成"
        classPrefix="ig"
        className="ig-confirm"
        onCancel={() => setConfirming(false)}
        onConfirm={() => void generate()}
      />
      <ConfirmDelete
        deletion={deletion}
        title="删除这条生成记录？"
        text="记录中的图片会一并删除，已保存到素材库的图片不受影响。"
        classPrefix="ig"
      />
    </div>
  );
}

interface PreviewProps {
  record: ImageRecord | undefined;
  closed$: PanelProps['closed$'];
  onDownload: (record: ImageRecord, indexes: number[]) => Promise<void>;
  onSave: (record: ImageRecord, index: number) => void;
  saving: boolean;
}

/** The carousel: turns every 2 s while it has more than one picture and the pointer is not on it. */
function Preview({ record, closed$, onDownload, onSave, saving }: PreviewProps) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = record?.url.length ?? 0;
  useEffect(() => setIndex(0), [record?.id]);
  useEffect(() => {
    if (count < 2 || paused) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), LIMITS.carouselMs);
    const sub = closed$.subscribe(() => clearInterval(timer));
    return () => {
      clearInterval(timer);
      sub.unsubscribe();
    };
  }, [count, paused, closed$]);
  const shown = Math.min(index, Math.max(count - 1, 0));

  if (!record || count === 0) {
    return (
      <section className="ig-card ig-preview ig-preview-empty" data-testid="imagegen-preview">
        <NonIdealState icon="media" title="生成的图片会显示在这里" description="选择比例和数量，点击立即生成。" />
      </section>
    );
  }
  const url = record.url[shown]!;
  return (
    <section className="ig-card ig-preview" data-testid="imagegen-preview" data-record={record.id}>
      <div className="ig-stage" onMouseEnter={() => setPaused(true)} onMouseLeave={() => setPaused(false)}>
        <img className="ig-stage-bg" src={url} alt="" aria-hidden draggable={false} />
        <img className="ig-stage-img" src={url} alt={`${record.text}（第 ${shown + 1} 张）`} draggable={false} data-testid="imagegen-slide" data-index={shown} />
        {count > 1 && (
          <>
            <Button className="ig-nav prev" icon="chevron-left" aria-label="上一张" onClick={() => setIndex((shown - 1 + count) % count)} />
            <Button className="ig-nav next" icon="chevron-right" aria-label="下一张" onClick={() => setIndex((shown + 1) % count)} />
            <div className="ig-dots">
              {record.url.map((u, i) => (
                <button key={u} type="button" className={`ig-dot${i === shown ? ' active' : ''}`} aria-label={`第 ${i + 1} 张`} onClick={() => setIndex(i)} data-testid="imagegen-dot" />
              ))}
            </div>
          </>
        )}
      </div>
      <div className="ig-preview-bar">
        <div className="ig-preview-text" title={record.text}>
          <Tag minimal round>
            {shown + 1}/{count}
          </Tag>
          <span>{record.text}</span>
        </div>
        <div className="ig-preview-actions">
          <Button icon="download" text="下载" onClick={() => void onDownload(record, [shown])} data-testid="imagegen-download" />
          <Button icon="floppy-disk" text="保存到素材库" loading={saving} onClick={() => onSave(record, shown)} data-testid="imagegen-save" />
        </div>
      </div>
      {record.reason && <p className="ig-note">{record.reason}</p>}
    </section>
  );
}

interface RecordCardProps {
  record: ImageRecord;
  active: boolean;
  onChoose: (r: ImageRecord) => void;
  onDownload: (r: ImageRecord) => void;
  onDelete: (r: ImageRecord) => void;
}

function RecordCard({ record: r, active, onChoose, onDownload, onDelete }: RecordCardProps) {
  const state = recordState(r);
  return (
    <article className={`ig-record ${state}${active ? ' active' : ''}`} data-testid="imagegen-record" data-id={r.id} data-state={state}>
      <div className="ig-record-thumb">
        {state === 'done' && r.url[0] ? (
          <img src={r.url[0]} alt={r.text} loading="lazy" draggable={false} />
        ) : state === 'failed' ? (
          <Icon icon="error" size={22} />
        ) : (
          <Spinner size={22} />
        )}
        {state === 'done' && r.url.length > 1 && <span className="ig-record-count">{r.url.length}张</span>}
      </div>
      <div className="ig-record-body">
        <p className="ig-record-text" title={r.text}>
          {r.text}
        </p>
        <p className="ig-record-meta">
          {r.ratio} · {r.num}张{r.create_time ? ` · ${r.create_time}` : ''}
        </p>
        {state === 'failed' && <p className="ig-record-reason" data-testid="imagegen-record-reason">{r.reason || '生成失败'}</p>}
        {state === 'running' && <p className="ig-record-running">生成中，请稍候…</p>}
        {state !== 'running' && (
          <div className="ig-record-actions">
            {state === 'done' && (
              <>
                <Button size="small" variant="minimal" icon="tick-circle" text="选择" onClick={() => onChoose(r)} data-testid="imagegen-record-choose" />
                <Button size="small" variant="minimal" icon="download" text="下载" onClick={() => onDownload(r)} data-testid="imagegen-record-download" />
              </>
            )}
            <Button size="small" variant="minimal" icon="trash" text="删除" intent="danger" onClick={() => onDelete(r)} data-testid="imagegen-record-delete" />
          </div>
        )}
      </div>
    </article>
  );
}
