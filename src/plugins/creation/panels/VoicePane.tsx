import { useEffect, useRef, useState } from 'react';
import { Button, Icon, NonIdealState, Tag } from '@blueprintjs/core';
import { API, LIMITS, MSG, VoiceStatus, type Material, type Voice } from '../../../contract';
import { Segments, TOKENS, VoiceSlider, useAction, useRemoteList, useService, type ApiClient, type Notifier } from '../../../core';
import { useCreate } from './create-draft';
import { paneState } from './pane-state';
import {
  DEFAULT_SLIDERS, SLIDER_KEYS, SLIDER_LABELS, disabledSliders, isPublicVoice, materialAudioOf, roundSlider, slidersOf, voicePickProblem,
  type Sliders,
} from './create-logic';

type Source = 'public' | 'mine' | 'material';

const sameSliders = (a: Sliders, b: Sliders) => a.rate === b.rate && a.volume === b.volume && a.pitch === b.pitch;

/** Hovering a voice plays its sample (one at a time); leaving stops it. */
function useHoverPreview() {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState<number | null>(null);
  const stop = () => {
    audio.current?.pause();
    setPlaying(null);
  };
  const start = (id: number, url: string) => {
    if (!url) return;
    audio.current ??= new Audio();
    const a = audio.current;
    a.onended = () => setPlaying(null);
    a.src = url;
    a.currentTime = 0;
    setPlaying(id);
    a.play().catch(() => setPlaying((p) => (p === id ? null : p)));
  };
  useEffect(() => () => audio.current?.pause(), []);
  return { playing, start, stop };
}

/** 声音 (part 2 §2.2): public (system), mine and the material library's audios; the parameter panel of the picked voice. */
export function VoicePane() {
  const { draft, update } = useCreate();
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const api = useService<ApiClient>(TOKENS.ApiClient);
  // A restored draft opens on its voice's own tab (a voice of mine is not on 公共声音).
  const [source, setSource] = useState<Source>(() => (draft.voice && !isPublicVoice(draft.voice) ? 'mine' : 'public'));
  // Each source's list loads while it is shown; coming back to it starts from a spinner.
  const fresh = { clearOnKeyChange: true };
  const voices = useRemoteList<Voice>(
    source === 'material' ? null : `voices-${source}`,
    async (signal) => (await api.call(API.voices.list, { source: source === 'mine' ? 1 : 2, page: 1, limit: LIMITS.listLimitAll }, { silent: true, signal })).list,
    fresh,
  );
  const audios = useRemoteList<Material>(
    source === 'material' ? 'audios-material' : null,
    async (signal) => (await api.call(API.material.list, { page: 1, limit: LIMITS.listLimitAll, type: 'audio', source: 0 }, { silent: true, signal })).list,
    fresh,
  );
  const loaded = source === 'material' ? audios : voices;
  const hover = useHoverPreview();

  // A voice the user picks shows its parameters: on a short pane they sit below the list, out of sight.
  const params = useRef<HTMLElement | null>(null);
  const revealParams = useRef(false);
  const pick = (voice: Voice) => {
    const problem = voicePickProblem(voice);
    if (problem) notifier.warn(problem);
    else if (draft.voice?.id !== voice.id) {
      revealParams.current = true;
      update({ voice, mode: 'text' });
    }
    else if (draft.mode !== 'text') update({ mode: 'text' });
  };
  const pickAudio = (m: Material) => {
    update({ mode: 'audio', audio: materialAudioOf(m) });
    notifier.info('已切换为音频驱动，使用素材库音频');
  };

  // ---- the parameter panel: pending values until 确认修改
  const voice = draft.voice;
  const [pending, setPending] = useState<Sliders>(draft.params);
  const { busy: saving, run: save } = useAction();
  useEffect(() => setPending(draft.params), [draft.params, voice?.id]);
  useEffect(() => {
    if (!revealParams.current || !params.current) return;
    revealParams.current = false;
    params.current.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [voice?.id]);
  const off = disabledSliders(voice?.api);
  const confirm = async () => {
    if (!voice) return;
    if (isPublicVoice(voice)) {
      update({ params: pending });
      notifier.success(MSG.modifySucceeded);
      return;
    }
    await save(() => api.call(API.voices.settings, { voice_id: voice.id, ...pending }), {
      then: () => {
        update({ voice: { ...voice, ...pending }, params: pending });
        notifier.success(MSG.voiceSettingsSaved);
        voices.reload();
      },
    });
  };

  return (
    <div className="cr-pane cr-voices" data-pane="voice" data-testid="create-voices">
      <Segments
        value={source}
        onChange={(v) => {
          hover.stop();
          setSource(v as Source);
        }}
        options={[['public', '公共声音'], ['mine', '我的声音'], ['material', '素材库']]}
        className="cr-segment"
        testId="create-voice-source"
      />
      <div className="cr-voice-scroll">
        {paneState({ loading: loaded.loading, error: loaded.error, count: loaded.list.length }) ??
          (source === 'material' ? (
            audios.list.length === 0 ? (
              <NonIdealState icon="folder-open" description="素材库中还没有音频" className="cr-empty" />
            ) : (
              <ul className="cr-voice-list">
                {audios.list.map((m) => {
                  const picked = draft.mode === 'audio' && draft.audio?.kind === 'material' && draft.audio.id === m.id;
                  return (
                    <li key={m.id}>
                      <button
                        type="button"
                        className={`cr-voice ${picked ? 'picked' : ''}`}
                        onClick={() => pickAudio(m)}
                        onMouseEnter={() => hover.start(-m.id, m.url)}
                        onMouseLeave={hover.stop}
                        aria-pressed={picked}
                      >
                        <Icon icon={picked ? 'tick-circle' : hover.playing === -m.id ? 'volume-up' : 'music'} className="cr-voice-icon" />
                        <span className="cr-voice-name">{m.name}</span>
                        <span className="cr-voice-meta">素材音频</span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )
          ) : voices.list.length === 0 ? (
            <NonIdealState icon="music" description={source === 'mine' ? '还没有声音，可在「声音克隆」创建' : '暂无公共声音'} className="cr-empty" />
          ) : (
            <ul className="cr-voice-list">
              {voices.list.map((v) => {
                const picked = draft.voice?.id === v.id;
                const training = v.generate_status === VoiceStatus.Training;
                const failed = v.generate_status === VoiceStatus.Failed;
                return (
                  <li key={v.id}>
                    <button
                      type="button"
                      className={`cr-voice ${picked ? 'picked' : ''} ${training || failed ? 'unusable' : ''}`}
                      onClick={() => pick(v)}
                      onMouseEnter={() => hover.start(v.id, v.url)}
                      onMouseLeave={hover.stop}
                      aria-pressed={picked}
                      data-testid={`create-voice-${v.id}`}
                    >
                      <Icon icon={picked ? 'tick-circle' : hover.playing === v.id ? 'volume-up' : 'music'} className="cr-voice-icon" />
                      <span className="cr-voice-name">{v.name}</span>
                      {training ? (
                        <Tag minimal intent="warning" className="cr-voice-tag">训练中</Tag>
                      ) : failed ? (
                        <Tag minimal intent="danger" className="cr-voice-tag">训练失败</Tag>
                      ) : (
                        <span className="cr-voice-meta">{[v.voice_channel_name, v.version_name].filter(Boolean).join(' ') || v.api}</span>
                      )}
                    </button>
                  </li>
                );
              })}
            </ul>
        ))}
      </div>
      {voice && source !== 'material' && (
        <section className="cr-params" data-testid="create-voice-params" ref={params}>
          <div className="cr-params-head">
            <span className="cr-params-title" title={isPublicVoice(voice) ? '随本次创作提交' : '保存到我的声音'}>声音参数</span>
            <Button
              size="small"
              variant="minimal"
              text="恢复默认"
              disabled={sameSliders(pending, DEFAULT_SLIDERS)}
              onClick={() => setPending({ ...DEFAULT_SLIDERS })}
              data-testid="create-params-reset"
            />
            <Button
              size="small"
              intent="primary"
              text="确认修改"
              loading={saving}
              disabled={sameSliders(pending, isPublicVoice(voice) ? draft.params : slidersOf(voice))}
              onClick={() => void confirm()}
              data-testid="create-params-confirm"
            />
          </div>
          {SLIDER_KEYS.map((key) => (
            <div key={key} className={`cr-param ${off[key] ? 'off' : ''}`} data-testid={`create-param-${key}`}>
              <span className="cr-param-label">{SLIDER_LABELS[key]}</span>
              <VoiceSlider param={key} value={pending[key]} disabled={off[key]} onChange={(v) => setPending((p) => ({ ...p, [key]: roundSlider(v) }))} className="cr-param-slider" />
              <span className="cr-param-value">{pending[key].toFixed(1)}</span>
            </div>
          ))}
        </section>
      )}
    </div>
  );
}
