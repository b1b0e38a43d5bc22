import { Button, Icon } from '@blueprintjs/core';
import { LIMITS, MSG, type MultiSceneChannel } from '../../../contract';
import { estimateDraft, formatSeconds, type DriveMode, type MultiDraft, type OutputMode } from './scenes';
import { Segments } from '../../../core';
import { SubtitleOptions } from '../SubtitleOptions';
import { BgmPicker } from '../BgmPicker';

export interface SidePanelProps {
  draft: MultiDraft;
  /** The channel that lip-syncs the avatar scenes (undefined: still asking; null: none enabled). */
  channel: MultiSceneChannel | null | undefined;
  submitting: boolean;
  onChange: (patch: Partial<Pick<MultiDraft, 'driveMode' | 'outputMode' | 'subtitles' | 'bgm'>>) => void;
  onSubmit: () => void;
}

const DRIVE_HINT: Record<DriveMode, string> = {
  serial: '每个场景从数字人视频的开头播放',
  random: '每个场景从数字人视频的随机位置开始',
};

/** The right panel: drive mode, output, captions and background music (ours), generation mode (credits only), model (V3.0 only), the estimate, submit. */
export function SidePanel({ draft, channel, submitting, onChange, onSubmit }: SidePanelProps) {
  const estimate = estimateDraft(draft, channel?.credits);
  const texts = draft.scenes.filter((s) => s.type === 'text').length;
  const audios = draft.scenes.length - texts;
  return (
    <aside className="mu-side" data-testid="multi-side" aria-label="合成设置">
      {/* First: which engine lip-syncs the avatar scenes (and so what the price below is). */}
      {channel !== undefined && (
        <div className="mu-engine" data-testid="multi-engine-note" data-channel={channel?.api ?? ''}>
          <Icon icon={channel ? 'info-sign' : 'warning-sign'} size={14} />
          <span>{channel ? channel.tip : MSG.multiSceneNoChannel}</span>
        </div>
      )}
      <div className="mu-card">
        <div className="mu-field">
          <span className="mu-field-label">驱动模式</span>
          <Segments value={draft.driveMode} onChange={(v) => onChange({ driveMode: v as DriveMode })} options={[['serial', '顺序驱动'], ['random', '随机驱动']]} fill testId="drive-mode" />
          <span className="mu-field-hint">{DRIVE_HINT[draft.driveMode]}</span>
        </div>
        <div className="mu-field">
          <span className="mu-field-label">输出设置</span>
          <Segments value={draft.outputMode} onChange={(v) => onChange({ outputMode: v as OutputMode })} options={[['video', '驱动视频'], ['audio', '仅音频']]} fill testId="output-mode" />
          <span className="mu-field-hint">{draft.outputMode === 'video' ? '输出一个 MP4 视频' : '只输出一个 MP3 音频，不合成视频'}</span>
        </div>
        <div className="mu-field">
          <span className="mu-field-label">字幕</span>
          <SubtitleOptions value={draft.subtitles} onChange={(subtitles) => onChange({ subtitles })} unavailable={draft.outputMode === 'audio' ? MSG.subtitlesAudioOnly : undefined} />
        </div>
        <div className="mu-field">
          <BgmPicker value={draft.bgm} onChange={(bgm) => onChange({ bgm })} disabled={submitting} />
        </div>
        <div className="mu-field mu-field-row">
          <span className="mu-field-label">生成模式</span>
          <span className="mu-fixed" data-testid="generation-mode">
            <Icon icon="dollar" size={12} />
            积分模式
          </span>
        </div>
        <div className="mu-field mu-field-row">
          <span className="mu-field-label">模型</span>
          <span className="mu-fixed" data-testid="model">
            <Icon icon="layers" size={12} />
            V3.0
          </span>
        </div>
      </div>

      <div className="mu-card mu-summary">
        <dl className="mu-figures">
          <dt>场景</dt>
          <dd data-testid="summary-scenes">
            {draft.scenes.length} 个<span className="mu-figure-sub">（文本 {texts} · 音频 {audios}）</span>
          </dd>
          <dt>预计时长</dt>
          <dd data-testid="estimate-seconds" data-seconds={estimate.seconds.toFixed(3)}>
            约 {formatSeconds(estimate.seconds)} 秒
          </dd>
          <dt>价格</dt>
          <dd data-testid="price-per-second" data-credits={channel?.credits}>
            {channel ? `${channel.credits} 积分/秒` : '—'}
            {channel && <span className="mu-figure-sub">（{channel.name}）</span>}
          </dd>
          <dt>预计消耗</dt>
          <dd className="mu-cost" data-testid="estimate-credits" data-credits={estimate.credits}>
            {estimate.credits} <span className="mu-figure-sub">积分</span>
          </dd>
        </dl>
        <p className="mu-note" data-testid="estimate-note">
          预估时长按每秒 {LIMITS.charsPerSecond} 个字加停顿时长计算，可能与实际合成时长存在差异，积分按实际合成时长扣除。
          {estimate.unknownAudio && ' 部分音频时长未能读取，未计入预估。'}
        </p>
      </div>

      {/* No lip-sync channel enabled: nothing can render; the note at the top says why. */}
      <Button intent="primary" size="large" fill icon="send-message" text="提交合成" loading={submitting} disabled={channel === null} title={channel === null ? MSG.multiSceneNoChannel : undefined} onClick={onSubmit} className="mu-submit" data-testid="multi-submit" />
    </aside>
  );
}
