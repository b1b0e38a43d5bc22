import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, Icon, InputGroup, Tag } from '@blueprintjs/core';
import { LIMITS, MSG, type Voice } from '../../../contract';
import { RequirementList, UploadBox, OneFileUpload, useService, useStore, useValue } from '../../../core';
import { CloneStateToken, type CloneState } from '../clone-state';
import { AUDIO_SAMPLE, CLONE_AUDIO_ACCEPT, audioRequirements, channelPrice, checkCloneAudio, isNameLocked, shortRecording } from '../voice-view';
import { SamplePlayer } from './SamplePlayer';

/** 克隆声音 / 修改声音: the channel (更换 for a new clone), the name, the requirements, one recording with its player, start. */
export function CloneDialog({ isOpen, target, onChangeChannel }: { isOpen: boolean; target: Voice | null; onChangeChannel: () => void }) {
  const clone = useService<CloneState>(CloneStateToken);
  useStore(clone.channels); // a modify's channel comes with the list
  const name = useValue(clone.name$);
  const audio = useValue(clone.audio$);
  const uploading = useValue(clone.uploading$);
  const submitting = useValue(clone.submitting$);
  const channel = clone.channel;
  const lockedName = target !== null && isNameLocked(target);
  const requirements = audioRequirements(channel);
  const short = audio ? shortRecording(audio.duration) : false;
  const close = () => clone.close();

  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      onClosed={() => clone.reset()}
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
          {!target && <Button variant="minimal" size="small" text="更换" className="vc-clone-channel-change" onClick={onChangeChannel} data-testid="clone-change-channel" />}
        </div>

        <FormGroup label="声音名称" labelFor="voice-clone-name" labelInfo={lockedName ? '(名称已锁定)' : '(必填)'}>
          <InputGroup
            id="voice-clone-name"
            value={name}
            onValueChange={(v) => clone.name$.next(v)}
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

        <OneFileUpload
          label="上传音频"
          classPrefix="vc"
          testId="voice-clone"
          uploadBox={
            <UploadBox
              type="voice"
              accept={CLONE_AUDIO_ACCEPT}
              check={(file) => checkCloneAudio(file)}
              onUploaded={(file) => clone.audioUploaded(file)}
              onBusyChange={(busy) => clone.uploading$.next(busy)}
              compact
              hint={AUDIO_SAMPLE.hint}
              data-testid="voice-clone-upload"
            />
          }
          file={audio}
          player={(a) => <SamplePlayer waveKey={`upload:${a.file_id}`} url={a.url} waveSource={a.file} knownDuration={a.duration} data-testid="voice-clone-player" />}
          onReupload={() => clone.audio$.next(null)}
          note={
            short && (
              <Callout intent="warning" icon="warning-sign" compact className="vc-short" data-testid="voice-clone-short">
                录音不足 {LIMITS.audio.adviseMinSeconds} 秒，建议上传更长的录音以获得更好的效果。
              </Callout>
            )
          }
        />
      </DialogBody>
      <DialogFooter
        actions={[
          <Button key="cancel" text="取消" onClick={close} />,
          <Button
            key="start"
            intent="primary"
            icon={target ? 'floppy-disk' : 'play'}
            text={target ? '提交修改' : '开始克隆'}
            loading={submitting}
            disabled={uploading || !channel}
            onClick={() => void clone.start()}
            data-testid="voice-clone-start"
          />,
        ]}
      />
    </Dialog>
  );
}
