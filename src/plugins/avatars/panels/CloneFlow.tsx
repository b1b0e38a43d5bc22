import { useMemo, useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, Icon, InputGroup } from '@blueprintjs/core';
import { API, LIMITS, MSG } from '../../../contract';
import { CloneAgreement, ConsentFooter, RequirementList, useConsent, UploadBox, VideoPlayer, OneFileUpload, leadingGate, useObservable, useService, TIMINGS, useScreenServices, type UploadedFile } from '../../../core';
import { AvatarsStateToken, type AvatarsState } from '../avatars-state';
import { CLONE_ACCEPT, VIDEO_SAMPLE, checkCloneVideo, cloneFormProblem } from '../avatar-view';
import { PROFILE_ROUTE } from '../avatars-commands';
import './avatars.css';

const REQUIREMENTS: { icon: 'mobile-phone' | 'time' | 'media' | 'database' | 'flash' | 'video'; text: string }[] = [
  { icon: 'mobile-phone', text: '横屏或竖屏均可，正脸出镜、光线充足' },
  { icon: 'time', text: `时长 ${VIDEO_SAMPLE.length}` },
  { icon: 'media', text: `分辨率 ${LIMITS.video.minShortSide}p ~ 4K` },
  { icon: 'database', text: `文件小于 ${VIDEO_SAMPLE.size}` },
  { icon: 'flash', text: '拍摄时关闭 HDR' },
  { icon: 'video', text: `格式为 ${VIDEO_SAMPLE.formats}` },
];

/** The clone flow (part 1 §2, §4, §5): the commitment dialog with consent, then name, upload, preview and 开始克隆. */
export default function CloneFlow() {
  const state = useService<AvatarsState>(AvatarsStateToken);
  const step = useObservable(state.cloneStep$, state.cloneStep$.value);
  return (
    <>
      <ConsentDialog isOpen={step === 'consent'} onClose={() => state.closeClone()} onAgree={() => state.consentGiven()} />
      <CloneDialog isOpen={step === 'form'} onClose={() => state.closeClone()} onStarted={() => state.notifyChanged()} />
    </>
  );
}

function ConsentDialog({ isOpen, onClose, onAgree }: { isOpen: boolean; onClose: () => void; onAgree: () => void }) {
  const { agreed, setAgreed, next, forget } = useConsent(onAgree);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} onClosed={forget} title="数字人克隆承诺书" icon="endorsed" className="av-dialog av-consent-dialog">
      <DialogBody>
        <p className="av-consent-lead">为保护肖像权与声音权益，克隆前请确认：</p>
        <ol className="av-consent-list">
          <li>上传的视频为本人出镜拍摄，或已取得视频中人物的书面授权；</li>
          <li>不使用克隆的数字人冒充他人，或从事违法违规、侵害他人权益、误导公众的活动；</li>
          <li>使用数字人生成的内容须遵守平台规范，违规内容平台有权删除并停止服务。</li>
        </ol>
        <CloneAgreement checked={agreed} onChange={setAgreed} className="av-consent-check" testId="clone-consent-check" />
      </DialogBody>
      <ConsentFooter onClose={onClose} onNext={next} nextTestId="clone-consent-next" />
    </Dialog>
  );
}

function CloneDialog({ isOpen, onClose, onStarted }: { isOpen: boolean; onClose: () => void; onStarted: () => void }) {
  const { api, notifier, navigation } = useScreenServices();
  const [name, setName] = useState('');
  const [video, setVideo] = useState<UploadedFile | null>(null);
  const [uploading, setUploading] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const gate = useMemo(() => leadingGate(TIMINGS.cloneThrottleMs), []);

  const reset = () => {
    setName('');
    setVideo(null);
    setUploading(false);
    setSubmitting(false);
  };

  const start = async () => {
    if (!gate()) return;
    const problem = cloneFormProblem(name, video?.file_id ?? null);
    if (problem) {
      notifier.warn(problem);
      return;
    }
    setSubmitting(true);
    try {
      await api.call(API.avatars.clone, { name: name.trim(), file_id: video!.file_id });
      notifier.success(MSG.cloneSubmitted);
      onClose();
      onStarted();
      if (navigation.current.path !== PROFILE_ROUTE) navigation.navigate(PROFILE_ROUTE);
    } catch {
      /* the server's message was shown */
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} onClosed={reset} title="克隆数字人" icon="new-person" className="av-dialog av-clone-dialog" canOutsideClickClose={false}>
      <DialogBody className="av-clone-body">
        <FormGroup label="数字人名称" labelFor="clone-name" labelInfo="(必填)">
          <InputGroup id="clone-name" value={name} onValueChange={setName} maxLength={LIMITS.nameMaxChars} placeholder={MSG.avatarNameRequired} data-testid="clone-name" />
        </FormGroup>

        <RequirementList title="视频要求" items={REQUIREMENTS} classPrefix="av" testId="clone-requirements" />

        <OneFileUpload
          label="上传视频"
          classPrefix="av"
          testId="clone"
          uploadBox={
            <UploadBox
              type="video"
              accept={CLONE_ACCEPT}
              check={(file) => checkCloneVideo(file)}
              onUploaded={(file) => {
                setVideo(file);
                setUploading(false);
              }}
              onBusyChange={setUploading}
              hint={VIDEO_SAMPLE.hint}
              data-testid="clone-upload"
            />
          }
          file={video}
          player={(v) => <VideoPlayer src={v.url} label="上传的视频" className="av-preview-video" data-testid="clone-preview-video" />}
          onReupload={() => setVideo(null)}
        />

        <div className="av-engine-note" data-testid="clone-engine-note">
          <Icon icon="info-sign" size={14} />
          <span>
            {MSG.lipSyncSummary}
          </span>
        </div>
      </DialogBody>
      <DialogFooter
        actions={[
          <Button key="cancel" text="取消" onClick={onClose} />,
          <Button key="start" intent="primary" icon="play" text="开始克隆" loading={submitting} disabled={uploading} onClick={() => void start()} data-testid="clone-start" />,
        ]}
      />
    </Dialog>
  );
}
