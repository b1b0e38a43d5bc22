/**
 * The two ways to hand over someone's short video, as video/audio extraction and copy extraction take it:
 * a pasted share link (or the whole share text), or an uploaded MP4/MOV.
 */
import type { FormEvent } from 'react';
import { Button, InputGroup, SegmentedControl, type IconName } from '@blueprintjs/core';
import { LIMITS, MSG } from '../contract';
import { useValue } from './screen-hooks';
import type { ShareForm } from './share-form';
import type { UploadedFile } from './upload-files';
import { UploadBox } from './upload-box-lazy';
import './shared-video.css';

/** The upload's check before anything is sent: MP4 or MOV, at most 500 MB (part 2 §5). */
export function sharedVideoProblem(file: { name: string; size: number }): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(LIMITS.video.formats as readonly string[]).includes(ext) || file.size > LIMITS.video.maxBytes) return MSG.extractVideoInvalid;
  return null;
}

/** The link box; the form around it submits on Enter. */
export function ShareLinkInput({ value, onChange, testId }: { value: string; onChange: (text: string) => void; testId: string }) {
  return (
    <InputGroup
      size="large"
      fill
      leftIcon="link"
      placeholder="粘贴分享链接或整段分享文案，例如：7.43 复制打开抖音，看看… https://v.douyin.com/…"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      maxLength={LIMITS.linkMaxChars}
      data-testid={testId}
    />
  );
}

export interface SharedVideoUploadProps {
  /** A new round mounts a fresh box (after a submit). */
  round: number;
  onVideo: (file: UploadedFile | null) => void;
  onBusyChange: (busy: boolean) => void;
  testId: string;
}

/** The compact upload box of one video. */
export function SharedVideoUpload({ round, onVideo, onBusyChange, testId }: SharedVideoUploadProps) {
  return (
    <UploadBox
      key={round}
      type="video"
      accept=".mp4,.mov"
      check={sharedVideoProblem}
      onUploaded={(file) => onVideo(file)}
      onRemoved={() => onVideo(null)}
      onBusyChange={onBusyChange}
      hint={`支持 MP4/MOV，不超过${LIMITS.video.maxBytes / 1024 / 1024}MB`}
      compact
      data-testid={testId}
    />
  );
}

/** The form's values as the panel renders them, and `start` for its submit (Enter or the button). */
export function useShareForm(form: ShareForm) {
  const start = (e?: FormEvent) => {
    e?.preventDefault();
    void form.start();
  };
  return {
    way: useValue(form.way$),
    text: useValue(form.text$),
    video: useValue(form.video$),
    uploading: useValue(form.uploading$),
    uploadRound: useValue(form.uploadRound$),
    submitting: useValue(form.submitting$),
    start,
  };
}

export interface ShareVideoFormProps {
  form: ShareForm;
  /** The way selector's choices (link or upload); without them, the link box alone. */
  ways?: readonly { value: number; label: string }[];
  /** The submit button: its text, its icon, and another icon for the upload way. */
  submit: { text: string; icon: IconName; uploadIcon?: IconName };
  /** Prefix of the parts' test ids (-way, -upload, -link, -start). */
  testId: string;
}

/** The way, the link box or the upload box, and the button; Enter or the button submits. */
export function ShareVideoForm({ form, ways, submit, testId }: ShareVideoFormProps) {
  const { way, text, video, uploading, uploadRound, submitting, start } = useShareForm(form);
  return (
    <form className="share-form" onSubmit={start}>
      {ways && (
        <SegmentedControl
          className="share-ways"
          options={ways.map((w) => ({ value: String(w.value), label: w.label }))}
          value={String(way)}
          onValueChange={(v) => form.way$.next(Number(v))}
          data-testid={`${testId}-way`}
        />
      )}
      {form.byUpload(way) ? (
        <div className="share-upload">
          <SharedVideoUpload round={uploadRound} onVideo={(file) => form.video$.next(file)} onBusyChange={(busy) => form.uploading$.next(busy)} testId={`${testId}-upload`} />
          <Button type="submit" intent="primary" size="large" icon={submit.uploadIcon ?? submit.icon} text={submit.text} loading={submitting} disabled={uploading || !video} data-testid={`${testId}-start`} />
        </div>
      ) : (
        <div className="share-link">
          <ShareLinkInput value={text} onChange={(t) => form.text$.next(t)} testId={`${testId}-link`} />
          <Button type="submit" intent="primary" size="large" icon={submit.icon} text={submit.text} loading={submitting} data-testid={`${testId}-start`} />
        </div>
      )}
    </form>
  );
}
