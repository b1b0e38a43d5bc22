/**
 * /store/sea (part 2 §2.7): upload a video (MP4/MOV ≤ 500 MB), choose the source and target language and the mode
 * (lip sync or voice only), see the price, submit. Without a speech-recognition engine the words come from the
 * captions on screen, read offline, and the screen says so (only captioned videos translate then); when neither can
 * read them it says so and cannot submit. A failed submit only closes the loader (part 2 §8); the record says why on /works (翻译视频),
 * where the results are, and in the recent list here. The state is the screen's (translation-state.ts).
 */
import { Button, Callout, Icon, SegmentedControl, Tag } from '@blueprintjs/core';
import { LIMITS, MSG, type TranslationLang, type TranslationModeValue } from '../../../contract';
import { HTMLSelect, PageHeader, UploadBox, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import { TranslationStateToken, type TranslationScreen, type TranslationState } from '../translation-state';
import { MODES, languagesView, priceText, uploadProblem } from '../translation-view';
import { RecentTranslations } from './RecentTranslations';
import './translation.css';

export function TranslationPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(TranslationStateToken, (state: TranslationState) => state.open(closed$));
  const langs = useStore(screen.langs);
  const mode = useValue(screen.mode$);
  const view = languagesView(langs.value, mode);
  return (
    <div className="tr-page" data-testid="translation">
      <div className="tr-inner">
        <PageHeader icon="translate" title="出海视频" subtitle="识别原视频的语音，翻译成目标语言并重新配音；可选口型同步。成片在「我的作品 · 翻译视频」。">
          <Button variant="minimal" icon="video" text="查看翻译视频" onClick={() => screen.openWorks()} data-testid="translation-works" />
        </PageHeader>

        {langs.loaded && !view.ready && (
          <Callout intent="warning" icon="warning-sign" className="tr-callout" data-testid="translation-not-ready">
            {MSG.translationAsrMissing}
          </Callout>
        )}
        {langs.loaded && view.ready && view.byCaptions && (
          <Callout intent="primary" icon="media" className="tr-callout" data-testid="translation-offline">
            {MSG.translationCaptionsOffline}
          </Callout>
        )}

        <TranslationForm screen={screen} languages={view.languages} ready={view.ready} perSecond={view.perSecond} />
        <RecentTranslations screen={screen} />
      </div>
    </div>
  );
}

function TranslationForm({ screen, languages, ready, perSecond }: { screen: TranslationScreen; languages: TranslationLang[]; ready: boolean; perSecond: number }) {
  const video = useValue(screen.video$);
  const uploading = useValue(screen.uploading$);
  const uploadRound = useValue(screen.uploadRound$);
  const source = useValue(screen.source$);
  const target = useValue(screen.target$);
  const mode = useValue(screen.mode$);
  const submitting = useValue(screen.submitting$);
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
    <section className="tr-form">
      <UploadBox
        key={uploadRound}
        type="video"
        accept=".mp4,.mov"
        check={uploadProblem}
        onUploaded={(file) => screen.video$.next(file)}
        onRemoved={() => screen.video$.next(null)}
        onBusyChange={(busy) => screen.uploading$.next(busy)}
        hint={`支持 MP4/MOV，不超过${LIMITS.video.maxBytes / 1024 / 1024}MB，建议${LIMITS.translateVideoHintMinutes}分钟以内`}
        data-testid="translation-upload"
      />
      <div className="tr-options">
        <label className="tr-field">
          <span>原视频语言</span>
          {languageSelect(source, (v) => screen.source$.next(v), '请选择初始语言', 'translation-source')}
        </label>
        <Icon icon="arrow-right" className="tr-arrow" />
        <label className="tr-field">
          <span>翻译成</span>
          {languageSelect(target, (v) => screen.target$.next(v), '请选择翻译后的语言', 'translation-target')}
        </label>
      </div>
      <div className="tr-field">
        <span>翻译模式</span>
        <SegmentedControl
          options={MODES.map((m) => ({ value: String(m.value), label: m.label }))}
          value={String(mode)}
          onValueChange={(v) => screen.mode$.next(Number(v) as TranslationModeValue)}
          data-testid="translation-mode"
        />
        <span className="tr-hint">{MODES.find((m) => m.value === mode)!.hint}</span>
      </div>
      <footer className="tr-submit">
        <Tag minimal round size="large" icon="dollar" data-testid="translation-price">
          {priceText(mode, perSecond, video?.duration)}
        </Tag>
        <Button intent="primary" size="large" icon="translate" text="提交翻译" loading={submitting} disabled={!ready || uploading} onClick={() => void screen.start()} data-testid="translation-submit" />
      </footer>
    </section>
  );
}
