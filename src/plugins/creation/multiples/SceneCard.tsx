import { memo, type MouseEvent, type ReactNode } from 'react';
import { Button, Icon, ProgressBar, Slider, Spinner, Tag, Tooltip } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { ScriptEditor, Segments, UploadBox, formatClock, sliderEnabled, voiceLabel, type AudioPlayer, type AudioPlayerState, type SliderKey } from '../../../core';
import { SCENE_AUDIO_ACCEPT, cachedAudition, checkSceneAudio, sceneLimit, sceneSeconds, type Scene, type SceneAudio, type SceneType } from './scenes';

export interface SceneActions {
  setType(id: string, type: SceneType): void;
  setText(id: string, text: string): void;
  setSlider(id: string, key: SliderKey, value: number): void;
  resetSliders(id: string): void;
  setAudio(id: string, audio: SceneAudio | null): void;
  move(id: string, delta: number): void;
  remove(id: string): void;
  audition(id: string): void;
  pickAvatar(id: string): void;
  pickVoice(id: string): void;
}

export interface SceneCardProps {
  scene: Scene;
  index: number;
  count: number;
  flagged: boolean;
  auditioning: boolean;
  /** Only for an audio-only work: the avatar is kept but not used. */
  avatarUnused: boolean;
  /** The player's state when it holds this scene's sound, else null (so other scenes do not re-render). */
  playing: AudioPlayerState | null;
  player: Pick<AudioPlayer, 'toggle' | 'seek'>;
  actions: SceneActions;
}

const SLIDERS: { key: SliderKey; label: string }[] = [
  { key: 'rate', label: '语速' },
  { key: 'volume', label: '音量' },
  { key: 'pitch', label: '音调' },
];

export const sceneKey = (id: string) => `scene:${id}`;
export const audioKey = (id: string) => `audio:${id}`;

/** One scene: avatar cover with 更换, the text/audio switch, and its voice + script or its uploaded audio. */
export const SceneCard = memo(function SceneCard({ scene, index, count, flagged, auditioning, avatarUnused, playing, player, actions }: SceneCardProps) {
  const seconds = sceneSeconds(scene);
  return (
    <section
      className={`mu-scene ${flagged ? 'flagged' : ''}`}
      data-testid="scene"
      data-scene-id={scene.id}
      data-type={scene.type}
      aria-label={`场景 ${index + 1}`}
    >
      <header className="mu-scene-head">
        <span className="mu-scene-index">场景 {index + 1}</span>
        <Segments value={scene.type} onChange={(v) => actions.setType(scene.id, v as SceneType)} options={[['text', '文本'], ['audio', '音频']]} className="mu-scene-type" testId="scene-type" />
        <span className="mu-scene-seconds" data-testid="scene-seconds">
          {seconds > 0 ? `约 ${Math.max(1, Math.round(seconds))} 秒` : ''}
        </span>
        <div className="mu-scene-actions">
          <Tooltip content="上移" placement="top" compact>
            <Button variant="minimal" size="small" icon="arrow-up" aria-label="上移" disabled={index === 0} onClick={() => actions.move(scene.id, -1)} data-testid="scene-up" />
          </Tooltip>
          <Tooltip content="下移" placement="top" compact>
            <Button variant="minimal" size="small" icon="arrow-down" aria-label="下移" disabled={index === count - 1} onClick={() => actions.move(scene.id, 1)} data-testid="scene-down" />
          </Tooltip>
          <Tooltip content={count <= 1 ? '至少保留一个场景' : '删除场景'} placement="top" compact>
            <Button variant="minimal" size="small" icon="trash" aria-label="删除场景" disabled={count <= 1} onClick={() => actions.remove(scene.id)} data-testid="scene-remove" />
          </Tooltip>
        </div>
      </header>

      <div className="mu-scene-body">
        <div className={`mu-scene-avatar ${avatarUnused ? 'unused' : ''}`}>
          <button
            type="button"
            className={`mu-cover ${scene.avatar?.orientation === 1 ? 'landscape' : ''}`}
            onClick={() => actions.pickAvatar(scene.id)}
            aria-label={scene.avatar ? `数字人：${scene.avatar.name}，点击更换` : '选择数字人'}
            data-testid="scene-avatar"
            data-avatar-id={scene.avatar?.id ?? ''}
          >
            {scene.avatar?.cover ? (
              <img src={scene.avatar.cover} alt="" />
            ) : (
              <span className="mu-cover-empty">
                <Icon icon="person" size={22} />
                <span>选择数字人</span>
              </span>
            )}
          </button>
          <div className="mu-avatar-meta">
            <span className="mu-avatar-name" title={scene.avatar?.name}>
              {scene.avatar?.name ?? '未选择数字人'}
            </span>
            <Button size="small" variant="outlined" icon="exchange" text={scene.avatar ? '更换' : '选择'} onClick={() => actions.pickAvatar(scene.id)} data-testid="scene-avatar-change" />
          </div>
          {avatarUnused && <span className="mu-avatar-unused">仅音频输出不使用数字人</span>}
        </div>

        <div className="mu-scene-main">
          {scene.type === 'text' ? (
            <TextScene scene={scene} auditioning={auditioning} playing={playing} player={player} actions={actions} />
          ) : (
            <AudioScene scene={scene} playing={playing} player={player} actions={actions} />
          )}
        </div>
      </div>
    </section>
  );
});

function TextScene({ scene, auditioning, playing, player, actions }: Pick<SceneCardProps, 'scene' | 'auditioning' | 'playing' | 'player' | 'actions'>) {
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
            const range = LIMITS.sliders[key];
            const enabled = sliderEnabled(api, key);
            return (
              <div key={key} className={`mu-slider ${enabled ? '' : 'disabled'}`} data-testid={`scene-slider-${key}`} title={enabled ? undefined : '该声音通道不支持调节'}>
                <span className="mu-slider-label">{label}</span>
                <Slider
                  min={range.min}
                  max={range.max}
                  stepSize={range.step}
                  labelRenderer={false}
                  value={scene[key]}
                  disabled={!enabled}
                  onChange={(v) => actions.setSlider(scene.id, key, v)}
                  className="mu-slider-control"
                />
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

function AudioScene({ scene, playing, player, actions }: Pick<SceneCardProps, 'scene' | 'playing' | 'player' | 'actions'>) {
  const audio = scene.audio;
  if (!audio) {
    return (
      <UploadBox
        type="voice"
        accept={SCENE_AUDIO_ACCEPT}
        check={checkSceneAudio}
        compact
        title={
          <>
            将音频拖到此处，或 <em>点击上传</em>
          </>
        }
        hint={`${LIMITS.audio.formats.map((f) => f.toUpperCase()).join(' / ')}，${LIMITS.audio.minSeconds} 秒 ~ ${LIMITS.audio.maxSeconds / 60} 分钟，${LIMITS.audio.maxBytes / 1024 / 1024}MB 以内`}
        onUploaded={(r) => actions.setAudio(scene.id, { file_id: r.file_id, url: r.url, name: r.file.name, duration: r.duration })}
        data-testid="scene-upload"
      />
    );
  }
  return (
    <div className="mu-audio" data-testid="scene-audio">
      <AudioStrip
        title={<span data-testid="scene-audio-name">{audio.name}</span>}
        meta={formatClock(audio.duration)}
        playing={playing}
        onToggle={() => player.toggle(audioKey(scene.id), audio.url)}
        onSeek={player.seek}
        testId="scene-audio-play"
      >
        <Tooltip content="删除音频" placement="top" compact>
          <Button variant="minimal" icon="trash" aria-label="删除音频" onClick={() => actions.setAudio(scene.id, null)} data-testid="scene-audio-remove" />
        </Tooltip>
      </AudioStrip>
    </div>
  );
}

/** A round play/pause button, the title with the time (or `meta` while not loaded), a seekable progress line. */
function AudioStrip(props: {
  title: ReactNode;
  meta: string;
  playing: AudioPlayerState | null;
  onToggle: () => void;
  onSeek: (f: number) => void;
  testId: string;
  children?: ReactNode;
}) {
  const { playing } = props;
  const on = Boolean(playing?.playing);
  const progress = playing && playing.duration > 0 ? Math.min(1, playing.time / playing.duration) : 0;
  const seek = (e: MouseEvent<HTMLDivElement>) => {
    if (!playing) return;
    const r = e.currentTarget.getBoundingClientRect();
    props.onSeek((e.clientX - r.left) / r.width);
  };
  return (
    <div className={`mu-strip ${on ? 'playing' : ''}`}>
      <Button className="mu-strip-play" intent="primary" icon={on ? 'pause' : 'play'} aria-label={on ? '暂停' : '播放'} onClick={props.onToggle} data-testid={props.testId} />
      <div className="mu-strip-main">
        <div className="mu-strip-title">
          <span className="mu-strip-name">{props.title}</span>
          <span className="mu-strip-time">{playing && playing.duration > 0 ? `${formatClock(playing.time)} / ${formatClock(playing.duration)}` : props.meta}</span>
        </div>
        <div className="mu-strip-track" onClick={seek} role="presentation">
          <ProgressBar value={progress} animate={false} stripes={false} intent="primary" className="mu-strip-bar" />
        </div>
      </div>
      {props.children}
    </div>
  );
}
