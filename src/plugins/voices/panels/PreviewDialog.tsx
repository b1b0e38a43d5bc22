import { useEffect, useRef, useState } from 'react';
import { Subject, firstValueFrom, last } from 'rxjs';
import { Button, Dialog, DialogBody, DialogFooter, Slider, TextArea } from '@blueprintjs/core';
import { API, LIMITS, MSG, type AuditionJob, type Voice } from '../../../contract';
import { TIMINGS, useScreenServices } from '../../../core';
import { statusLine } from '../voice-view';
import { SamplePlayer } from './SamplePlayer';
import { waveKeyOf } from './VoiceCard';

type Settings = { rate: number; volume: number; pitch: number };
const DEFAULTS: Settings = { rate: LIMITS.sliders.rate.default, volume: LIMITS.sliders.volume.default, pitch: LIMITS.sliders.pitch.default };
const SLIDERS: { key: keyof Settings; label: string }[] = [
  { key: 'rate', label: '语速' },
  { key: 'volume', label: '音量' },
  { key: 'pitch', label: '音调' },
];
const round = (n: number) => Math.round(n * 10) / 10;
const AUDITION_TEXT = '大家好，这是我的声音。<#0.5#>欢迎使用AI超级分身，一起来创作数字人视频吧！';
const AuditionStatus = { Done: 3, Failed: 4 } as const;

/** Synthesizes a text with the voice and its settings (an audition job, polled every 3 s) and plays the result. */
function AuditionBox({ voice, settings }: { voice: Voice; settings: Settings }) {
  const { api, polling, notifier } = useScreenServices();
  const [text, setText] = useState(AUDITION_TEXT);
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState('');
  const closed = useRef(new Subject<void>());
  useEffect(() => () => closed.current.next(), []);

  const run = async () => {
    if (!text.trim()) return void notifier.error(MSG.auditionNeedsTextAndVoice);
    setBusy(true);
    setUrl('');
    try {
      const { job_id } = await api.call(API.voices.audition, { voice_id: voice.id, text, ...settings });
      const job = await firstValueFrom(
        polling
          .poll<AuditionJob>(() => api.call(API.voices.auditionPoll, { job_id }), {
            intervalMs: TIMINGS.auditionPollMs,
            keepGoing: (j) => j.status !== AuditionStatus.Done && j.status !== AuditionStatus.Failed,
            stop$: closed.current,
          })
          .pipe(last()),
        { defaultValue: undefined },
      );
      if (job?.status === AuditionStatus.Done) setUrl(job.url);
      else if (job) notifier.error(MSG.auditionFailed);
    } catch {
      /* the server's message was shown */
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="vc-audition" data-testid="voice-audition">
      <TextArea value={text} onChange={(e) => setText(e.target.value)} fill rows={2} maxLength={500} aria-label="试听文本" data-testid="voice-audition-text" />
      <div className="vc-audition-row">
        <Button icon="volume-up" text={busy ? '合成中…' : '合成试听'} loading={busy} onClick={() => void run()} data-testid="voice-audition-run" />
        <span className="vc-setting-note">按当前语速、音量、音调合成，停顿标记 &lt;#0.5#&gt; 会变成真实的停顿。</span>
      </div>
      {url && <audio src={url} controls autoPlay className="vc-audition-player" data-testid="voice-audition-player" />}
    </div>
  );
}

/**
 * 试听与设置: the sample with its waveform (plays the voice's url), and for an own voice its speed, volume and
 * pitch (saved with voices.settings, which closes the dialog; speed and volume up to 1 are heard here at once, the
 * rest in synthesis).
 */
export function PreviewDialog({ voice, own, onClose, onSaved }: { voice: Voice | null; own: boolean; onClose: () => void; onSaved: () => void }) {
  const { api, notifier } = useScreenServices();
  const [settings, setSettings] = useState<Settings>(DEFAULTS);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (voice) setSettings({ rate: voice.rate || DEFAULTS.rate, volume: voice.volume || DEFAULTS.volume, pitch: voice.pitch || DEFAULTS.pitch });
  }, [voice]);

  const save = async () => {
    if (!voice) return;
    setSaving(true);
    try {
      await api.call(API.voices.settings, { voice_id: voice.id, ...settings });
      notifier.success(MSG.saveSucceeded);
      onSaved();
      onClose();
    } catch {
      /* the server's message was shown */
    } finally {
      setSaving(false);
    }
  };

  const channel = voice ? voice.voice_channel_name || voice.version_name || voice.api : '';
  return (
    <Dialog isOpen={voice !== null} onClose={onClose} title={voice ? `试听：${voice.name}` : ''} icon="headset" className="vc-dialog vc-preview-dialog">
      <DialogBody className="vc-preview-body">
        {voice && (
          <>
            <div className="vc-preview-info">
              <span className="vc-preview-channel">{channel}</span>
              {own && <span className="vc-preview-status">{statusLine(voice)}</span>}
            </div>
            <SamplePlayer key={voice.id} waveKey={waveKeyOf(voice)} url={voice.url} rate={settings.rate} volume={settings.volume} autoPlay data-testid="voice-preview" />
            {voice.generate_status !== 1 && voice.generate_status !== 3 && <AuditionBox key={`a${voice.id}`} voice={voice} settings={settings} />}
            {own && (
              <div className="vc-settings" data-testid="voice-settings">
                {SLIDERS.map(({ key, label }) => {
                  const range = LIMITS.sliders[key];
                  return (
                    <div key={key} className="vc-setting" data-testid={`voice-setting-${key}`}>
                      <span className="vc-setting-label">{label}</span>
                      <Slider
                        min={range.min}
                        max={range.max}
                        stepSize={range.step}
                        labelStepSize={range.max - range.min}
                        labelRenderer={(v) => round(v).toFixed(1)}
                        value={settings[key]}
                        onChange={(v) => setSettings((s) => ({ ...s, [key]: round(v) }))}
                        className="vc-setting-slider"
                      />
                      <span className="vc-setting-value">{settings[key].toFixed(1)}</span>
                    </div>
                  );
                })}
                <p className="vc-setting-note">语速即时生效；音量超过 1.0 与音调在合成视频时生效。</p>
              </div>
            )}
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          own
            ? [
                <Button key="reset" variant="minimal" text="恢复默认" onClick={() => setSettings(DEFAULTS)} data-testid="voice-settings-reset" />,
                <Button key="close" text="关闭" onClick={onClose} data-testid="voice-preview-close" />,
                <Button key="save" intent="primary" text="保存设置" loading={saving} onClick={() => void save()} data-testid="voice-settings-save" />,
              ]
            : [<Button key="close" text="关闭" onClick={onClose} data-testid="voice-preview-close" />]
        }
      >
        {voice && !own && <span className="vc-dialog-hint">公共声音可直接用于视频创作</span>}
      </DialogFooter>
    </Dialog>
  );
}
