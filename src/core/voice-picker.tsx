import { useEffect, useState } from 'react';
import { Button, Checkbox, Icon } from '@blueprintjs/core';
import { API, LIMITS, MSG, VoiceStatus, type Voice } from '../contract';
import type { AudioPlayer } from './audio-player';
import { PickerDialog, pickerPending } from './picker-pending';
import { useService } from './react';
import { useRemote } from './remote';
import { Segments } from './segments';
import { TOKENS, type ApiClient, type Notifier } from './tokens';
import { sceneVoiceOf, voiceLabel, type SceneVoice } from './voice-choice';
import './voice-picker.css';

type Source = '2' | '1';

export interface VoicePickerProps {
  isOpen: boolean;
  current: SceneVoice | null;
  player: AudioPlayer;
  onClose: () => void;
  /** The chosen voice, for this scene or (所有场景使用) for every scene. */
  onPick: (voice: Voice, allScenes: boolean) => void;
  /** The apply-to-all box's words (所有场景使用); null: no such box (one role's voice in the dubbing studio). */
  applyAllLabel?: string | null;
}

const sampleKey = (voice: Voice) => `voice:${voice.id}`;

/** 选择声音 (part 2 §2.3): public or mine, each voice with its sample; 所有场景使用, 取消 and 确定 (/multiples' scenes, the dubbing studio's roles). */
export function VoicePicker({ isOpen, current, player, onClose, onPick, applyAllLabel = '所有场景使用' }: VoicePickerProps) {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [source, setSource] = useState<Source>('2');
  const [picked, setPicked] = useState<Voice | null>(null);
  const [allScenes, setAllScenes] = useState(false);

  useEffect(() => {
    if (!isOpen) return;
    setPicked(null);
    setAllScenes(false);
  }, [isOpen]);

  const remote = useRemote(isOpen ? `voices-${source}` : null, async (signal) =>
    (await api.call(API.voices.list, { source: Number(source) as 1 | 2, page: 1, limit: LIMITS.listLimitAll }, { silent: true, signal })).list,
  );
  const list = remote.value ?? [];
  const pending = pickerPending(remote);
  const selectedId = picked?.id ?? current?.id ?? null;

  const close = () => {
    if (player.state.key?.startsWith('voice:')) player.stop();
    onClose();
  };
  const choose = (voice: Voice) => {
    if (voice.generate_status === VoiceStatus.Training) notifier.warn(MSG.voiceTraining);
    else if (voice.generate_status === VoiceStatus.Failed) notifier.warn(MSG.voiceFailed);
    else setPicked(voice);
  };
  const confirm = () => {
    // The current voice counts as chosen: 所有场景使用 with it needs no second click.
    const voice = picked ?? list.find((v) => v.id === current?.id) ?? null;
    if (!voice) {
      notifier.warn(allScenes ? MSG.applyVoiceNeedsVoice : MSG.voiceRequired);
      return;
    }
    onPick(voice, allScenes);
    close();
  };

  return (
    <PickerDialog
      isOpen={isOpen}
      title="选择声音"
      icon="music"
      className="mu-voice-dialog"
      testId="voice-picker"
      bar={<Segments value={source} onChange={(v) => setSource(v as Source)} options={[['2', '公共声音'], ['1', '我的声音']]} testId="voice-source" />}
      pending={pending}
      empty={list.length === 0 ? { icon: 'music', description: source === '1' ? '还没有声音，可在「声音克隆」创建' : '暂无公共声音' } : null}
      onClose={close}
      onConfirm={confirm}
      footer={
        applyAllLabel !== null && (
          <Checkbox checked={allScenes} onChange={(e) => setAllScenes(e.currentTarget.checked)} label={applyAllLabel} className="mu-apply-all" data-testid="voice-apply-all" />
        )
      }
    >
      <ul className="mu-voice-list" role="listbox" aria-label="声音">
        {list.map((v) => {
          const selected = selectedId === v.id;
          const playing = player.state.key === sampleKey(v) && player.state.playing;
          const status = v.generate_status === VoiceStatus.Training ? '训练中' : v.generate_status === VoiceStatus.Failed ? '训练失败' : '';
          return (
            <li key={v.id} className={`mu-voice-option ${selected ? 'selected' : ''} ${status ? 'unavailable' : ''}`} data-testid="voice-option" data-id={v.id}>
              <Button
                variant="minimal"
                size="small"
                icon={playing ? 'pause' : 'play'}
                aria-label={playing ? '暂停试听' : '试听声音'}
                disabled={!v.url}
                onClick={() => player.toggle(sampleKey(v), v.url)}
                className="mu-voice-option-play"
                data-testid="voice-option-play"
              />
              <button type="button" role="option" aria-selected={selected} className="mu-voice-option-main" onClick={() => choose(v)} onDoubleClick={() => !status && (onPick(v, allScenes), close())}>
                <span className="mu-voice-option-name">{v.name}</span>
                <span className="mu-voice-option-meta">{status || voiceLabel(sceneVoiceOf(v))}</span>
                <Icon icon={selected ? 'tick-circle' : 'circle'} className="mu-voice-option-check" />
              </button>
            </li>
          );
        })}
      </ul>
    </PickerDialog>
  );
}
