import { useEffect, useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, Slider } from '@blueprintjs/core';
import { API, LIMITS, MSG, type Voice } from '../../../contract';
import { TOKENS, useService, type ApiClient, type Notifier } from '../../../core';
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

/**
 * 试听与设置: the sample with its waveform (plays the voice's url), and for an own voice its speed, volume and
 * pitch (saved with voice.settings, which closes the dialog; speed and volume up to 1 are heard here at once, the
 * rest in synthesis).
 */
export function PreviewDialog({ voice, own, onClose, onSaved }: { voice: Voice | null; own: boolean; onClose: () => void; onSaved: () => void }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [settings, setSettings] = useState<Settings>(DEFAULTS);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (voice) setSettings({ rate: voice.rate || DEFAULTS.rate, volume: voice.volume || DEFAULTS.volume, pitch: voice.pitch || DEFAULTS.pitch });
  }, [voice]);

  const save = async () => {
    if (!voice) return;
    setSaving(true);
    try {
      await api.call(API.voice.settings, { voice_id: voice.id, ...settings });
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
