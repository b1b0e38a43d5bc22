import { memo } from 'react';
import { Button, Icon, Tooltip } from '@blueprintjs/core';
import { Segments } from '../../../core';
import { sceneSeconds, type SceneType } from './scenes';
import type { SceneCardProps } from './scene-card-props';
import { TextScene } from './TextScene';
import { AudioScene } from './AudioScene';

export { audioKey, sceneKey, type SceneActions, type SceneCardProps } from './scene-card-props';

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
