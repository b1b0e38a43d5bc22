import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, Icon, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { API, LIMITS, MSG, type ChannelApi, type Voice, type VoiceChannel } from '../../../contract';
import { ApiCallError, CloneAgreement, ConsentFooter, RequirementList, useConsent, SafeHtml, TOKENS, UploadBox, UploadedFileLabel, leadingGate, useObservable, useService, type ApiClient, type Navigation, type Notifier, type UploadedFile, TIMINGS } from '../../../core';
import { VoicesStateToken, type VoicesState } from '../voices-state';
import { CLONE_ROUTE } from '../voices-commands';
import { AUDIO_MAX_MB, CLONE_AUDIO_ACCEPT, audioRequirements, channelOf, channelPrice, checkAudioDuration, checkCloneAudio, cloneFormProblem, isNameLocked, pickableChannels, shortRecording, showsFreeTimes } from '../voice-view';
import { SamplePlayer } from './SamplePlayer';
import './voices.css';

/**
 * The clone flow (part 1 §2, §4, §5): the usage and payment notice (agree), the channel picker (xf hidden, the
 * choice debounced 0.5 s), then the clone dialog (name, one audio, its waveform, start). Modify opens the clone
 * dialog for the voice, on its own channel, with its id.
 */
export default function CloneFlow() {
  const state = useService<VoicesState>(VoicesStateToken);
  const flow = useObservable(state.flow$, state.flow$.value);
  return (
    <>
      <NoticeDialog isOpen={flow.step === 'notice'} onClose={() => state.closeClone()} onAgree={() => state.noticeAgreed()} />
      <ChannelDialog isOpen={flow.step === 'channel'} initial={flow.channel} onClose={() => state.closeClone()} onChosen={(c) => state.channelChosen(c)} />
      <CloneDialog
        isOpen={flow.step === 'form'}
        channel={flow.channel}
        target={flow.target}
        onClose={() => state.closeClone()}
        onChangeChannel={() => state.changeChannel()}
        onStarted={() => state.notifyChanged()}
      />
    </>
  );
}

/** Channels of this user (credits, free_times, train_times), loaded when `active` turns on. */
function useChannels(active: boolean) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [channels, setChannels] = useState<VoiceChannel[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [bump, setBump] = useState(0);
  useEffect(() => {
    if (!active) return;
    let live = true;
    setError(null);
    api.call(API.voices.channels, {}, { silent: true }).then(
      (r) => live && setChannels(r.list),
      (err: unknown) => live && setError(err instanceof ApiCallError || err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [api, active, bump]);
  return { channels, error, retry: () => setBump((b) => b + 1) };
}

// ---------------------------------------------------------------------------------------------------------------- notice

const DEFAULT_RULES = [
  '仅可克隆本人的声音，或已取得声音所有者书面授权的声音；',
  '不得使用克隆的声音冒充他人，或从事违法违规、侵害他人权益、误导公众的活动；',
  '使用克隆声音生成的内容须遵守平台规范，违规内容平台有权删除并停止服务。',
];

function NoticeDialog({ isOpen, onClose, onAgree }: { isOpen: boolean; onClose: () => void; onAgree: () => void }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const { agreed, setAgreed, next, forget } = useConsent(onAgree);
  // The operator's clone usage rules (site setting clone_usage, served as the clone agreement).
  const [usage, setUsage] = useState<string | null>(null);
  useEffect(() => {
    if (!isOpen || usage !== null) return;
    let live = true;
    api.call(API.site.protocol, { type: 'clone' }, { silent: true }).then(
      (r) => live && setUsage(r.content),
      () => live && setUsage(''),
    );
    return () => {
      live = false;
    };
  }, [api, isOpen, usage]);

  return (
    <Dialog isOpen={isOpen} onClose={onClose} onClosed={forget} title="声音克隆须知" icon="info-sign" className="vc-dialog vc-notice-dialog">
      <DialogBody className="vc-notice-body">
        <section className="vc-notice-section">
          <h4 className="vc-notice-title">
            <Icon icon="shield" size={14} />
            使用规范
          </h4>
          <div className="vc-notice-usage" data-testid="clone-usage">
            {usage === null ? (
              <Spinner size={20} />
            ) : usage.trim() ? (
              <Suspense fallback={<Spinner size={20} />}>
                <SafeHtml html={usage} className="vc-notice-html" />
              </Suspense>
            ) : (
              <ol className="vc-notice-list">
                {DEFAULT_RULES.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ol>
            )}
          </div>
        </section>
        <section className="vc-notice-section">
          <h4 className="vc-notice-title">
            <Icon icon="dollar" size={14} />
            收费说明
          </h4>
          <ul className="vc-notice-list plain" data-testid="clone-payment">
            <li>每次克隆按所选渠道的标价扣除积分，标价为 0 的渠道免费；</li>
            <li>渠道有免费次数时优先使用免费次数；</li>
            <li>克隆完成后的声音可在剩余次数内修改，确认后声音固定。</li>
          </ul>
        </section>
        <CloneAgreement checked={agreed} onChange={setAgreed} className="vc-notice-check" testId="voice-notice-check" />
      </DialogBody>
      <ConsentFooter onClose={onClose} onNext={next} nextTestId="voice-notice-next" />
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------- channels

function ChannelDialog({
  isOpen,
  initial,
  onClose,
  onChosen,
}: {
  isOpen: boolean;
  initial: VoiceChannel | null;
  onClose: () => void;
  onChosen: (channel: VoiceChannel) => void;
}) {
  const { channels, error, retry } = useChannels(isOpen);
  const [picked, setPicked] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const list = useMemo(() => (channels ? pickableChannels(channels) : null), [channels]);

  useEffect(() => {
    if (isOpen) setPicked(initial?.api ?? null);
    return () => clearTimeout(timer.current);
  }, [isOpen, initial]);

  // The choice settles 0.5 s after the last click (LIMITS.channelChoiceDebounceMs), then the clone dialog opens.
  const choose = (channel: VoiceChannel) => {
    setPicked(channel.api);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onChosen(channel), LIMITS.channelChoiceDebounceMs);
  };
  const close = () => {
    clearTimeout(timer.current);
    onClose();
  };

  return (
    <Dialog isOpen={isOpen} onClose={close} title="选择克隆渠道" icon="exchange" className="vc-dialog vc-channel-dialog">
      <DialogBody className="vc-channel-body">
        {error ? (
          <NonIdealState icon="error" title="渠道加载失败" description={error} action={<Button icon="refresh" text="重试" onClick={retry} />} />
        ) : list === null ? (
          <div className="vc-dialog-center">
            <Spinner size={28} />
          </div>
        ) : list.length === 0 ? (
          <NonIdealState icon="offline" title="暂无可用渠道" description="运营方开通声音克隆渠道后即可使用。" />
        ) : (
          <div className="vc-channels" role="radiogroup" aria-label="克隆渠道" data-testid="voice-channels">
            {list.map((c) => {
              const selected = picked === c.api;
              return (
                <button
                  key={c.api}
                  type="button"
                  role="radio"
                  aria-checked={selected}
                  className={`vc-channel ${selected ? 'selected' : ''}`}
                  onClick={() => choose(c)}
                  data-testid="voice-channel"
                  data-api={c.api}
                >
                  <span className="vc-channel-head">
                    <span className="vc-channel-name">{c.name}</span>
                    {c.version_name && <span className="vc-channel-version">{c.version_name}</span>}
                    <span className={`vc-channel-price ${c.credits > 0 ? '' : 'free'}`} data-testid="voice-channel-price">
                      {channelPrice(c)}
                    </span>
                  </span>
                  {c.desc && <span className="vc-channel-desc">{c.desc}</span>}
                  <span className="vc-channel-meta">
                    {showsFreeTimes(c) && (
                      <span data-testid="voice-channel-free">
                        剩余免费 <b>{c.free_times}</b> 次
                      </span>
                    )}
                    <span data-testid="voice-channel-train">
                      可训练 <b>{c.train_times}</b> 次
                    </span>
                    {c.language && <span className="vc-channel-lang">{c.language}</span>}
                  </span>
                  <Icon icon={selected ? 'tick-circle' : 'circle'} className="vc-channel-check" size={16} />
                </button>
              );
            })}
          </div>
        )}
      </DialogBody>
      <DialogFooter actions={[<Button key="cancel" text="取消" onClick={close} />]}>
        <span className="vc-dialog-hint">点选渠道后进入下一步</span>
      </DialogFooter>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------------------------- clone

function CloneDialog({
  isOpen,
  channel: picked,
  target,
  onClose,
  onChangeChannel,
  onStarted,
}: {
  isOpen: boolean;
  channel: VoiceChannel | null;
  target: Voice | null;
  onClose: () => void;
  onChangeChannel: () => void;
  onStarted: () => void;
}) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  // A modify needs the voice's channel (its upload tip); a new clone has the picked one.
  const { channels } = useChannels(isOpen && target !== null);
  const channel = target ? channelOf(target, channels ?? []) : picked;
  const [name, setName] = useState('');
  const [audio, setAudio] = useState<UploadedFile | null>(null);
  const [uploading, setUploading] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const gate = useMemo(() => leadingGate(TIMINGS.cloneThrottleMs), []);
  const lockedName = target !== null && isNameLocked(target);

  useEffect(() => {
    if (isOpen) setName(target?.name ?? '');
  }, [isOpen, target]);

  const reset = () => {
    setName('');
    setAudio(null);
    setUploading(false);
    setSubmitting(false);
  };

  const uploaded = (file: UploadedFile) => {
    setUploading(false);
    const problem = checkAudioDuration(file.duration);
    if (problem) {
      notifier.warn(problem);
      return;
    }
    setAudio(file);
  };

  const start = async () => {
    if (!gate() || !channel) return;
    const problem = cloneFormProblem(name, audio?.file_id ?? null);
    if (problem) {
      notifier.warn(problem);
      return;
    }
    setSubmitting(true);
    try {
      await api.call(API.voices.create, {
        ...(target ? { id: target.id } : {}),
        name: name.trim(),
        file_id: audio!.file_id,
        api: channel.api as ChannelApi,
        voice_channel_name: channel.name,
      });
      notifier.success(target ? MSG.modifySucceeded : MSG.cloneSucceeded);
      onClose();
      onStarted();
      if (navigation.current.path !== CLONE_ROUTE || navigation.current.query.id === '2') navigation.navigate(CLONE_ROUTE, { id: 1 });
    } catch {
      /* the server's message was shown */
    } finally {
      setSubmitting(false);
    }
  };

  const requirements = audioRequirements(channel);
  const short = audio ? shortRecording(audio.duration) : false;

  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      onClosed={reset}
      title={target ? '修改声音' : '克隆声音'}
      icon={target ? 'refresh' : 'volume-up'}
      className="vc-dialog vc-clone-dialog"
      canOutsideClickClose={false}
    >
      <DialogBody className="vc-clone-body">
        <div className="vc-clone-channel" data-testid="clone-channel">
          <Icon icon="exchange" size={14} />
          <span className="vc-clone-channel-label">克隆渠道</span>
          <span className="vc-clone-channel-name">{channel?.name ?? '—'}</span>
          {channel && !target && (
            <Tag minimal round intent={channel.credits > 0 ? 'none' : 'success'}>
              {channelPrice(channel)}
            </Tag>
          )}
          {!target && (
            <Button variant="minimal" size="small" text="更换" className="vc-clone-channel-change" onClick={onChangeChannel} data-testid="clone-change-channel" />
          )}
        </div>

        <FormGroup label="声音名称" labelFor="voice-clone-name" labelInfo={lockedName ? '(名称已锁定)' : '(必填)'}>
          <InputGroup
            id="voice-clone-name"
            value={name}
            onValueChange={setName}
            maxLength={LIMITS.nameMaxChars}
            placeholder={MSG.voiceNameRequired}
            disabled={lockedName}
            data-testid="voice-clone-name"
          />
        </FormGroup>

        <RequirementList
          title="音频要求"
          items={requirements.map((text, i) => (i === requirements.length - 1 ? { icon: 'lightbulb', text, tip: true } : { icon: 'small-tick', text }))}
          classPrefix="vc"
          testId="voice-requirements"
        />

        <FormGroup label="上传音频" labelInfo="(1 个文件)" className="vc-upload-group">
          {audio ? (
            <div className="vc-preview" data-testid="voice-clone-preview">
              <SamplePlayer waveKey={`upload:${audio.file_id}`} url={audio.url} waveSource={audio.file} knownDuration={audio.duration} data-testid="voice-clone-player" />
              <div className="vc-preview-bar">
                <div className="vc-preview-meta">
                  <Icon icon="tick-circle" intent="success" />
                  <UploadedFileLabel file={audio} classPrefix="vc-preview" />
                </div>
                <Button size="small" icon="refresh" text="重新上传" onClick={() => setAudio(null)} data-testid="voice-clone-reupload" />
              </div>
              {short && (
                <Callout intent="warning" icon="warning-sign" compact className="vc-short" data-testid="voice-clone-short">
                  录音不足 {LIMITS.audio.adviseMinSeconds} 秒，建议上传更长的录音以获得更好的效果。
                </Callout>
              )}
            </div>
          ) : (
            <UploadBox
              type="voice"
              accept={CLONE_AUDIO_ACCEPT}
              check={(file) => checkCloneAudio(file)}
              onUploaded={uploaded}
              onBusyChange={setUploading}
              compact
              hint={`MP3 / M4A / WAV，${AUDIO_MAX_MB}MB 以内，时长 ${LIMITS.audio.minSeconds} 秒 ~ ${LIMITS.audio.maxSeconds / 60} 分钟`}
              data-testid="voice-clone-upload"
            />
          )}
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={[
          <Button key="cancel" text="取消" onClick={onClose} />,
          <Button
            key="start"
            intent="primary"
            icon={target ? 'floppy-disk' : 'play'}
            text={target ? '提交修改' : '开始克隆'}
            loading={submitting}
            disabled={uploading || !channel}
            onClick={() => void start()}
            data-testid="voice-clone-start"
          />,
        ]}
      />
    </Dialog>
  );
}
