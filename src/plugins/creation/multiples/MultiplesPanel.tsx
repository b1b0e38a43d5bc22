/**
 * /multiples (part 2 §2.3): the editable name, the scene list (each with its avatar, text/audio switch, voice and
 * script or uploaded audio; add, reorder, remove) and the right panel (drive mode, output, generation mode, model,
 * the estimate with its note and price, submit). On a narrow page the right panel goes below the scenes.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Icon, InputGroup } from '@blueprintjs/core';
import { LIMITS, MSG } from '../../../contract';
import { TOKENS, VoicePicker, useAudioPlayer, useObservable, usePanelHost, useService, type Notifier, type PanelProps } from '../../../core';
import { MultiplesStateToken, type MultiplesState } from './multiples-state';
import {
  applyVoiceToAll, canAddScene, estimateDraft, formatSeconds, moveScene, removeScene, resetSceneSliders, setSceneAudio, setSceneAvatar, setSceneSlider, setSceneText,
  setSceneType, setSceneVoice, type SceneAvatar,
} from './scenes';
import { SceneCard, audioKey, sceneKey, type SceneActions } from './SceneCard';
import { SidePanel } from './SidePanel';
import { AvatarPicker } from './AvatarPicker';
import './multiples.css';

type Picker = { kind: 'avatar' | 'voice'; sceneId: string } | null;

export default function MultiplesPanel(_props: PanelProps) {
  const state = useService<MultiplesState>(MultiplesStateToken);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const draft = useObservable(state.draft$, state.draft);
  const auditioning = useObservable(state.auditioning$, state.auditioning$.value);
  const flagged = useObservable(state.flagged$, state.flagged$.value);
  const submitting = useObservable(state.submitting$, state.submitting$.value);
  const channel = useObservable(state.channel$, state.channel$.value);
  useEffect(() => void state.loadChannel(), [state]);
  const player = useAudioPlayer((m) => notifier.error(m));
  const [picker, setPicker] = useState<Picker>(null);
  const host = usePanelHost();
  const unsaved = useObservable(state.unsaved$, false);
  useEffect(() => host.setDirty(unsaved), [host, unsaved]);
  const listRef = useRef<HTMLDivElement>(null);

  const reveal = useCallback((id: string) => {
    // After the render that added the scene.
    requestAnimationFrame(() => {
      const el = listRef.current?.querySelector<HTMLElement>(`[data-scene-id="${id}"]`);
      el?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    });
  }, []);

  useEffect(() => {
    const subs = [state.reveal$.subscribe(reveal), state.play$.subscribe(({ sceneId, url }) => player.play(sceneKey(sceneId), url))];
    // A check that stopped before the page was open (from the palette): show its scene.
    if (state.flagged$.value) reveal(state.flagged$.value);
    return () => subs.forEach((s) => s.unsubscribe());
    // player.play is stable.
  }, [state, reveal, player.play]);

  // A removed scene, or a cleared audition, stops what it was playing.
  useEffect(() => {
    const key = player.state.key;
    if (!key || key.startsWith('voice:')) return;
    const id = key.slice(key.indexOf(':') + 1);
    const scene = draft.scenes.find((s) => s.id === id);
    const alive = key.startsWith('scene:') ? scene?.type === 'text' && scene.audition !== null : scene?.type === 'audio' && scene.audio !== null;
    if (!alive) player.stop(key);
  }, [draft, player]);

  const actions = useMemo<SceneActions>(
    () => ({
      setType: (id, type) => state.update((d) => setSceneType(d, id, type)),
      setText: (id, text) => state.update((d) => setSceneText(d, id, text)),
      setSlider: (id, key, value) => state.update((d) => setSceneSlider(d, id, key, value)),
      resetSliders: (id) => state.update((d) => resetSceneSliders(d, id)),
      setAudio: (id, audio) => state.update((d) => setSceneAudio(d, id, audio)),
      move: (id, delta) => {
        state.update((d) => moveScene(d, id, delta));
        reveal(id);
      },
      remove: (id) => state.update((d) => removeScene(d, id)),
      audition: (id) => void state.audition(id),
      pickAvatar: (sceneId) => setPicker({ kind: 'avatar', sceneId }),
      pickVoice: (sceneId) => setPicker({ kind: 'voice', sceneId }),
    }),
    [state, reveal],
  );
  const playerActions = useMemo(() => ({ toggle: player.toggle, seek: player.seek }), [player.toggle, player.seek]);

  const pickedScene = picker ? draft.scenes.find((s) => s.id === picker.sceneId) ?? null : null;
  const full = !canAddScene(draft);
  const estimate = estimateDraft(draft, channel?.credits);

  return (
    <div className="mu-page" data-testid="multiples-panel">
      <div className="mu-layout">
        <div className="mu-main">
          <header className="mu-head">
            <h2 className="mu-title">多场景创作</h2>
            <InputGroup
              className="mu-name"
              leftIcon="edit"
              value={draft.name}
              maxLength={LIMITS.nameMaxChars}
              placeholder={LIMITS.defaultWorkName}
              onValueChange={(name) => state.update((d) => ({ ...d, name }))}
              aria-label="作品名称"
              data-testid="multi-name"
            />
          </header>

          <div className="mu-scenes" ref={listRef} data-testid="scene-list">
            {draft.scenes.map((scene, index) => {
              const held = player.state.key === sceneKey(scene.id) || player.state.key === audioKey(scene.id);
              return (
                <SceneCard
                  key={scene.id}
                  scene={scene}
                  index={index}
                  count={draft.scenes.length}
                  flagged={flagged === scene.id}
                  auditioning={auditioning.has(scene.id)}
                  avatarUnused={draft.outputMode === 'audio'}
                  playing={held ? player.state : null}
                  player={playerActions}
                  actions={actions}
                />
              );
            })}
          </div>

          <div className="mu-add">
            <Button icon="new-text-box" text="添加文本场景" onClick={() => state.addScene('text')} disabled={full} className="mu-add-button" data-testid="add-text-scene" />
            <Button icon="music" text="添加音频场景" onClick={() => state.addScene('audio')} disabled={full} className="mu-add-button" data-testid="add-audio-scene" />
          </div>
          {full && (
            <p className="mu-add-full">
              <Icon icon="info-sign" size={12} /> 场景不能超过{LIMITS.sceneMaxCount}个
            </p>
          )}
        </div>

        <SidePanel draft={draft} channel={channel} submitting={submitting} onChange={(patch) => state.update((d) => ({ ...d, ...patch }))} onSubmit={() => void state.submit()} />
      </div>

      {/* A narrow page: the estimate and submit stay at the bottom of the screen. */}
      <div className="mu-bar" data-testid="multi-bar">
        <div className="mu-bar-figures">
          <span className="mu-bar-seconds">约 {formatSeconds(estimate.seconds)} 秒</span>
          <span className="mu-bar-credits">
            <strong>{estimate.credits}</strong> 积分
          </span>
        </div>
        <Button intent="primary" icon="send-message" text="提交合成" loading={submitting} disabled={channel === null} title={channel === null ? MSG.multiSceneNoChannel : undefined} onClick={() => void state.submit()} data-testid="multi-submit-bar" />
      </div>

      <AvatarPicker
        isOpen={picker?.kind === 'avatar' && pickedScene !== null}
        current={pickedScene?.avatar ?? null}
        onClose={() => setPicker(null)}
        onPick={(avatar: SceneAvatar) => pickedScene && state.update((d) => setSceneAvatar(d, pickedScene.id, avatar))}
      />
      <VoicePicker
        isOpen={picker?.kind === 'voice' && pickedScene !== null}
        current={pickedScene?.voice ?? null}
        player={player}
        onClose={() => setPicker(null)}
        onPick={(voice, all) => pickedScene && state.update((d) => (all ? applyVoiceToAll(d, voice) : setSceneVoice(d, pickedScene.id, voice)))}
      />
      <audio {...player.bind} className="mu-audio-element" data-testid="multi-audio" />
    </div>
  );
}
