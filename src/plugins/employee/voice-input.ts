/**
 * Hold to talk on /employee/talking: the microphone is recorded (MediaRecorder) while the button or the space bar is
 * held; on release the recording goes to bot.hear and the recognised text is sent as the message. Without a
 * recognition engine (bot.hearing) or a recorder in the browser, the screen says why instead.
 */
import { BehaviorSubject } from 'rxjs';
import { API, LIMITS, MSG, ResultCode, TOKEN_HEADER } from '../../contract';
import { RemoteStore, type ScreenServices } from '../../core';

export type VoicePhase = 'off' | 'recording' | 'hearing';

const recorderInBrowser = () => typeof MediaRecorder !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia);

export class VoiceTalk {
  /** Whether the server can hear (a recognition engine is set). */
  readonly hearing: RemoteStore<{ ready: 0 | 1 }>;
  readonly phase$ = new BehaviorSubject<VoicePhase>('off');
  /** Whole seconds recorded so far (shown on the button while it is held). */
  readonly seconds$ = new BehaviorSubject(0);
  private tick: ReturnType<typeof setInterval> | undefined;
  private recorder: Promise<MediaRecorder | null> | null = null;
  private chunks: Blob[] = [];
  private cap: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly s: ScreenServices,
    /** The recognised text becomes the message: this sends it. */
    private readonly say: (text: string) => Promise<void>,
  ) {
    this.hearing = new RemoteStore((signal) => s.api.call(API.bot.hearing, {}, { signal }));
  }

  /** Why voice input cannot be used here ('' when it can). */
  unavailable(ready: number | undefined): string {
    if (ready === 0) return MSG.botHearNoEngine;
    return recorderInBrowser() ? '' : MSG.botHearUnsupported;
  }

  /** Pressed: recording starts (stopped by itself at the longest a recording may be). */
  press(): void {
    if (this.phase$.value !== 'off' || !recorderInBrowser()) return;
    this.phase$.next('recording');
    this.seconds$.next(0);
    this.chunks = [];
    this.recorder = navigator.mediaDevices.getUserMedia({ audio: true }).then(
      (stream) => {
        const recorder = new MediaRecorder(stream);
        recorder.ondataavailable = (e) => e.data.size > 0 && this.chunks.push(e.data);
        recorder.start();
        const started = Date.now();
        this.tick = setInterval(() => this.seconds$.next(Math.floor((Date.now() - started) / 1000)), 250);
        return recorder;
      },
      () => {
        this.s.notifier.warn(MSG.botHearMicDenied);
        this.phase$.next('off');
        return null;
      },
    );
    this.cap = setTimeout(() => void this.release(), LIMITS.bot.hearMaxSeconds * 1000);
  }

  /** Released: the recording is heard and what it says is sent. */
  async release(): Promise<void> {
    clearTimeout(this.cap);
    clearInterval(this.tick);
    const pending = this.recorder;
    this.recorder = null;
    const recorder = pending ? await pending : null;
    if (!recorder || this.phase$.value !== 'recording') return;
    const blob = await new Promise<Blob>((resolve) => {
      recorder.onstop = () => resolve(new Blob(this.chunks, { type: recorder.mimeType || 'audio/webm' }));
      recorder.stop();
      recorder.stream.getTracks().forEach((t) => t.stop());
    });
    this.phase$.next('hearing');
    try {
      const text = await this.hear(blob);
      this.phase$.next('off');
      if (text) await this.say(text);
    } finally {
      this.phase$.next('off');
    }
  }

  /** The recording to bot.hear (multipart, the session in its header); its text, or '' after saying why not. */
  private async hear(blob: Blob): Promise<string> {
    if (!blob.size) {
      this.s.notifier.warn(MSG.botHearAudioRequired);
      return '';
    }
    const form = new FormData();
    form.set('file', blob, `voice.${blob.type.includes('ogg') ? 'ogg' : 'webm'}`);
    try {
      const res = await fetch(API.bot.hear.path, { method: 'POST', body: form, headers: { [TOKEN_HEADER]: this.s.tokens.get() ?? '' } });
      const reply = (await res.json()) as { code: number; msg: string; data: { text: string } | null };
      if (reply.code === ResultCode.Ok && reply.data?.text) return reply.data.text;
      this.s.notifier.warn(reply.msg || MSG.botHearFailed);
    } catch {
      this.s.notifier.warn(MSG.botHearFailed);
    }
    return '';
  }

  dispose(): void {
    clearTimeout(this.cap);
    clearInterval(this.tick);
    void this.recorder?.then((r) => r?.stream.getTracks().forEach((t) => t.stop()));
    this.recorder = null;
  }
}
