import { Button, Icon, Spinner, Tag, Tooltip } from '@blueprintjs/core';
import { ScriptEditor, VoiceSlider, sliderEnabled, voiceLabel, type SliderKey } from '../../../core';
import { cachedAudition, sceneLimit } from './scenes';
import { sceneKey, type SceneCardProps } from './scene-card-props';
import { AudioStrip } from './AudioStrip';

const SLIDERS: { key: SliderKey; label: string }[] = [
  { key: 'rate', label: '语速' },
  { key: 'volume', label: '音量' },
  { key: 'pitch', label: '音调' },
];

/** A text scene: its voice with the sliders, its script, and its audition once there is one. */
export function TextScene({ scene, auditioning, playing, player, actions }: Pick<SceneCardProps, 'scene' | 'auditioning' | 'playing' | 'player' | 'actions'>) {
  const audition = cachedAudition(scene);
  const api = scene.voice?.api;
  return (
    <>
      <div className="mu-voice" data-testid="scene-voice">
        <div className="mu-voice-head">
          <span className="mu-voice-icon">
            <Icon icon="music" size={14} />
          </span>
          <span className={`mu-voice-name ${scene.voice ? '' : 'empty'}`} data-testid="scene-voice-name">
            {scene.voice?.name ?? '未选择声音'}
          </span>
          {scene.voice && (
            <Tag minimal round className="mu-voice-tag">
              {voiceLabel(scene.voice)}
            </Tag>
          )}
          <Button size="small" variant="outlined" icon="exchange" text={scene.voice ? '更换声音' : '选择声音'} onClick={() => actions.pickVoice(scene.id)} className="mu-voice-change" data-testid="scene-voice-change" />
        </div>
        <div className="mu-sliders">
          {SLIDERS.map(({ key, label }) => {
            const enabled = sliderEnabled(api, key);
            return (
              <div key={key} className={`mu-slider ${enabled ? '' : 'disabled'}`} data-testid={`scene-slider-${key}`} title={enabled ? undefined : '该声音通道不支持调节'}>
                <span className="mu-slider-label">{label}</span>
                <VoiceSlider param={key} value={scene[key]} disabled={!enabled} onChange={(v) => actions.setSlider(scene.id, key, v)} className="mu-slider-control" />
                <span className="mu-slider-value" data-testid={`scene-slider-${key}-value`}>
                  {scene[key].toFixed(1)}
                </span>
              </div>
            );
          })}
          <Tooltip content="恢复默认" placement="top" compact>
            <Button variant="minimal" size="small" icon="reset" aria-label="恢复默认" onClick={() => actions.resetSliders(scene.id)} className="mu-slider-reset" data-testid="scene-slider-reset" />
          </Tooltip>
        </div>
      </div>

      <div className="mu-editor">
        <ScriptEditor
          value={scene.text}
          onChange={(text) => actions.setText(scene.id, text)}
          channelApi={api}
          limit={sceneLimit(scene)}
          onAudition={() => actions.audition(scene.id)}
          auditionBusy={auditioning}
          placeholder="请输入本场景的台词，可在光标处插入停顿…"
        />
      </div>

      {(auditioning || audition) && (
        <div className="mu-preview" data-testid="scene-preview" data-state={auditioning ? 'busy' : 'ready'}>
          {auditioning ? (
            <span className="mu-preview-busy">
              <Spinner size={16} />
              正在合成试听…
            </span>
          ) : (
            audition && (
              <AudioStrip
                title="本场景试听"
                meta="提交时直接使用"
                playing={playing}
                onToggle={() => player.toggle(sceneKey(scene.id), audition.url)}
                onSeek={player.seek}
                testId="scene-preview-play"
              />
            )
          )}
        </div>
      )}
    </>
  );
}
