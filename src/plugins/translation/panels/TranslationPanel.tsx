/**
 * /store/sea (part 2 §2.7): upload a video (MP4/MOV ≤ 500 MB), choose the source and target language and the mode
 * (lip sync or voice only), see the price, submit. Without a speech-recognition engine the screen says so and
 * cannot submit. A failed submit only closes the loader (part 2 §8); the record says why on /works (翻译视频),
 * where the results are, and in the recent list here.
 */
import { useState } from 'react';
import { Button, Callout, HTMLSelect, Icon, SegmentedControl, Spinner, Tag } from '@blueprintjs/core';
import { API, LIMITS, MSG, TRANSLATE_CREDITS_PER_SECOND, TranslateMode, WorkStatus, type TranslateModeValue } from '../../../contract';
import { PageHeader, TOKENS, UploadBox, useAction, useRemote, useService, type ApiClient, type AuthService, type Navigation, type Notifier, type PanelProps, type UploadedFile, TIMINGS } from '../../../core';
import { MODES, priceText, submitProblem, uploadProblem } from '../translation-view';
import './translation.css';

const WORKS = { route: '/works', query: { type1: 0, type2: 3 } };

export function TranslationPanel(_: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const auth = useService<AuthService>(TOKENS.AuthService);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const [video, setVideo] = useState<UploadedFile | null>(null);
  const [uploading, setUploading] = useState(false);
  const [uploadRound, setUploadRound] = useState(0);
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [mode, setMode] = useState<TranslateModeValue>(TranslateMode.LipSync);
  const submit = useAction();

  const langs = useRemote('translate:lang', (signal) => api.call(API.translation.languages, {}, { silent: true, signal }));
  const recent = useRemote('translate:recent', (signal) => api.call(API.translation.list, { page: 1, limit: 5 }, { silent: true, signal }), {
    poll: { intervalMs: TIMINGS.worksPollMs, keepGoing: (v) => (v.generate ?? 0) > 0 },
  });
  const languages = langs.value?.list ?? [];
  const ready = langs.value?.ready !== false;
  const perSecond = langs.value?.prices?.[mode] ?? TRANSLATE_CREDITS_PER_SECOND[mode];

  const start = () => {
    if (submit.busy) return;
    const problem = submitProblem({ fileId: video?.file_id, source, target });
    if (problem) return notifier.error(problem);
    void submit.run(
      // Failures only close the loader (part 2 §8): the call is silent.
      () => api.call(API.translation.submit, { file_id: video!.file_id, source_lang: source, target_lang: target, mode }, { silent: true }),
      {
        success: MSG.submitSucceeded,
        then: () => {
          setVideo(null);
          setUploadRound((r) => r + 1);
          recent.reload();
          void auth.refreshProfile().catch(() => undefined);
        },
      },
    );
  };

  const languageSelect = (value: string, onChange: (v: string) => void, placeholder: string, testId: string) => (
    <HTMLSelect fill value={value} onChange={(e) => onChange(e.currentTarget.value)} data-testid={testId} aria-label={placeholder}>
      <option value="">{placeholder}</option>
      {languages.map((l) => (
        <option key={l.id} value={l.id}>
          {l.icon} · {l.name}
        </option>
      ))}
    </HTMLSelect>
  );

  return (
    <div className="tr-page" data-testid="translation">
      <div className="tr-inner">
        <PageHeader icon="translate" title="出海视频" subtitle="识别原视频的语音，翻译成目标语言并重新配音；可选口型同步。成片在「我的作品 · 翻译视频」。">
          <Button variant="minimal" icon="video" text="查看翻译视频" onClick={() => navigation.navigate(WORKS.route, WORKS.query)} data-testid="translation-works" />
        </PageHeader>

        {langs.loaded && !ready && (
          <Callout intent="warning" icon="warning-sign" className="tr-callout" data-testid="translation-not-ready">
            {MSG.translateAsrMissing}
          </Callout>
        )}

        <section className="tr-form">
          <UploadBox
            key={uploadRound}
            type="video"
            accept=".mp4,.mov"
            check={uploadProblem}
            onUploaded={setVideo}
            onRemoved={() => setVideo(null)}
            onBusyChange={setUploading}
            hint={`支持 MP4/MOV，不超过${LIMITS.video.maxBytes / 1024 / 1024}MB，建议${LIMITS.translateVideoHintMinutes}分钟以内`}
            data-testid="translation-upload"
          />
          <div className="tr-options">
            <label className="tr-field">
              <span>原视频语言</span>
              {languageSelect(source, setSource, '请选择初始语言', 'translation-source')}
            </label>
            <Icon icon="arrow-right" className="tr-arrow" />
            <label className="tr-field">
              <span>翻译成</span>
              {languageSelect(target, setTarget, '请选择翻译后的语言', 'translation-target')}
            </label>
          </div>
          <div className="tr-field">
            <span>翻译模式</span>
            <SegmentedControl
              options={MODES.map((m) => ({ value: String(m.value), label: m.label }))}
              value={String(mode)}
              onValueChange={(v) => setMode(Number(v) as TranslateModeValue)}
              data-testid="translation-mode"
            />
            <span className="tr-hint">{MODES.find((m) => m.value === mode)!.hint}</span>
          </div>
          <footer className="tr-submit">
            <Tag minimal round size="large" icon="dollar" data-testid="translation-price">
              {priceText(mode, perSecond, video?.duration)}
            </Tag>
            <Button intent="primary" size="large" icon="translate" text="提交翻译" loading={submit.busy} disabled={!ready || uploading} onClick={start} data-testid="translation-submit" />
          </footer>
        </section>

        {(recent.value?.list.length ?? 0) > 0 && (
          <section className="tr-recent" data-testid="translation-recent">
            <h3>最近的翻译</h3>
            {recent.value!.list.map((r) => (
              <div key={r.id} className="tr-record" data-testid="translation-record" data-status={r.status}>
                <span className="tr-record-name" title={r.name}>{r.name}</span>
                {r.status === WorkStatus.Success ? (
                  <Tag intent="success" minimal round icon="tick">已完成</Tag>
                ) : r.status === WorkStatus.Failed ? (
                  <Tag intent="danger" minimal round icon="error" title={r.reason}>失败</Tag>
                ) : (
                  <Tag intent="primary" minimal round icon={<Spinner size={12} />}>翻译中</Tag>
                )}
                {r.reason && <span className="tr-record-reason" data-testid="translation-reason">{r.reason}</span>}
                {r.status === WorkStatus.Success && r.voice && <span className="tr-record-reason" data-testid="translation-voice">{r.voice}</span>}
              </div>
            ))}
          </section>
        )}
      </div>
    </div>
  );
}
