import { Button, Callout } from '@blueprintjs/core';
import { API, LIMITS, MSG, type VoiceChannel } from '../../../contract';
import { ScriptEditor, Segments, TOKENS, UploadBox, formatDuration, metaLine, useRemoteList, useService, type ApiClient, type Notifier, type UploadedFile } from '../../../core';
import { useCreate } from './create-draft';
import { cachedAudition, channelHasEmotion, type DriveMode } from './create-logic';

export const AUDIO_ACCEPT = '.mp3,.m4a,.wav,audio/mpeg,audio/mp3,audio/mp4,audio/x-m4a,audio/wav,audio/x-wav,audio/wave';
const AUDIO_EXT = /\.(mp3|m4a|wav)$/i;

/** Audio mode's requirements (part 2 §2.2, §5): mp3/m4a/wav, one file, 5 s to 30 min. */
export function checkDriveAudio(file: { name: string; size: number }): string | null {
  if (!AUDIO_EXT.test(file.name)) return MSG.audioInvalid;
  if (file.size > LIMITS.audio.maxBytes) return MSG.audioTooLarge(LIMITS.audio.maxBytes / 1024 / 1024);
  return null;
}
export function checkDriveDuration(seconds: number | undefined): string | null {
  if (seconds === undefined) return null;
  return seconds < LIMITS.audio.minSeconds || seconds > LIMITS.audio.maxSeconds ? MSG.audioDurationInvalid : null;
}


/** Audio-driven: the requirements, a drag-and-drop upload, then a replay with re-upload. */
function AudioDrive() {
  const { draft, update } = useCreate();
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const audio = draft.audio;
  const uploaded = (file: UploadedFile) => {
    const problem = checkDriveDuration(file.duration);
    if (problem) {
      notifier.warn(problem);
      return;
    }
    update({ audio: { kind: 'upload', id: file.file_id, url: file.url, name: file.file.name, duration: file.duration } });
  };
  return (
    <div className="cr-audio" data-testid="create-audio">
      <Callout intent="primary" icon="info-sign" compact className="cr-audio-notice">
        音频要求：MP3 / M4A / WAV 格式，单个文件，时长 {LIMITS.audio.minSeconds} 秒到 {LIMITS.audio.maxSeconds / 60} 分钟。视频时长与音频一致。
      </Callout>
      {audio ? (
        <div className="cr-audio-file" data-testid="create-audio-file">
          <div className="cr-audio-line">
            <span className="cr-audio-name" title={audio.name}>{audio.name}</span>
            <span className="cr-audio-meta">{metaLine(audio.kind === 'material' ? '素材库' : '已上传', formatDuration(audio.duration))}</span>
          </div>
          {audio.url && <audio controls preload="metadata" src={audio.url} className="cr-audio-player" data-testid="create-audio-player" />}
          <Button icon="refresh" text="重新上传" size="small" onClick={() => update({ audio: null })} data-testid="create-audio-reupload" />
        </div>
      ) : (
        <UploadBox
          type="voice"
          accept={AUDIO_ACCEPT}
          check={checkDriveAudio}
          onUploaded={uploaded}
          title={<>将音频拖到此处，或 <em>点击上传</em></>}
          hint="支持 MP3 / M4A / WAV，5 秒 – 30 分钟"
          data-testid="create-audio-upload"
        />
      )}
    </div>
  );
}

/** 脚本: the drive switch, then the script editor (text) or the audio (audio); the voice's channel sets the editor's rules. */
export function ScriptPane() {
  const { draft, update, audition, submit, auditioning } = useCreate();
  const channel = draft.voice?.api;
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const channels = useRemoteList<VoiceChannel>('voice-channels', async (signal) => (await api.call(API.voices.channels, {}, { silent: true, signal })).list);
  const hint = channels.list.find((c) => c.api === channel)?.language;
  return (
    <div className="cr-pane cr-script" data-pane="script" data-testid="create-script">
      <Segments value={draft.mode} onChange={(v) => update({ mode: v as DriveMode })} options={[['text', '文本驱动'], ['audio', '音频驱动']]} className="cr-segment cr-mode" testId="create-mode" />
      {draft.mode === 'text' ? (
        <ScriptEditor
          value={draft.text}
          onChange={(text) => update({ text })}
          channelApi={channel}
          onAudition={audition}
          auditionBusy={auditioning}
          auditionReady={cachedAudition(draft) !== null}
          onSubmit={submit}
          showLanguage={Boolean(channel)}
          language={draft.language}
          onLanguageChange={(language) => update({ language })}
          showEmotion={channelHasEmotion(channel)}
          emotion={draft.emotion}
          onEmotionChange={(emotion) => update({ emotion })}
          languageHint={hint ? `支持语言：${hint}` : undefined}
        />
      ) : (
        <AudioDrive />
      )}
    </div>
  );
}
