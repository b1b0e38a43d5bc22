import { Button, Tooltip } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { UploadBox, formatClock } from '../../../core';
import { SCENE_AUDIO_ACCEPT, checkSceneAudio } from './scenes';
import { audioKey, type SceneCardProps } from './scene-card-props';
import { AudioStrip } from './AudioStrip';

/** An audio scene: the upload box, then the uploaded audio with play and delete. */
export function AudioScene({ scene, playing, player, actions }: Pick<SceneCardProps, 'scene' | 'playing' | 'player' | 'actions'>) {
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
