import { inject, injectable } from 'inversify';
import { BehaviorSubject, distinctUntilChanged } from 'rxjs';
import { API, LIMITS, MSG, type ChannelApi, type VoiceChannel } from '../../contract';
import { RemoteStore, TIMINGS, TOKENS, leadingGate, runBusy, type ScreenServices, type UploadedFile } from '../../core';
import { CLONE_ROUTE } from './voices-commands';
import { VoicesStateToken, type CloneFlowState, type VoicesState } from './voices-state';
import { channelOf, checkAudioDuration, cloneFormProblem } from './voice-view';

export const CloneStateToken = Symbol.for('voices.Clone');

/**
 * What the clone dialogs hold (part 1 §2, §4, §5), beside the step in VoicesState: the operator's usage rules (asked
 * the first time the notice opens), this user's channels (asked each time the picker, or a modify, opens), the
 * channel highlighted before the choice settles (LIMITS.channelChoiceDebounceMs), and the clone form: name, audio,
 * start (one click a TIMINGS.cloneThrottleMs).
 */
@injectable()
export class CloneState {
  /** The clone usage rules as HTML ('' when there are none or they could not be read: the built-in rules show). */
  readonly usage: RemoteStore<string>;
  readonly channels: RemoteStore<VoiceChannel[]>;
  /** The channel highlighted in the picker. */
  readonly picked$ = new BehaviorSubject<string | null>(null);
  readonly name$ = new BehaviorSubject('');
  readonly audio$ = new BehaviorSubject<UploadedFile | null>(null);
  readonly uploading$ = new BehaviorSubject(false);
  readonly submitting$ = new BehaviorSubject(false);
  private readonly gate = leadingGate(TIMINGS.cloneThrottleMs);
  private choice: ReturnType<typeof setTimeout> | undefined;

  constructor(
    @inject(TOKENS.ScreenServices) private readonly s: ScreenServices,
    @inject(VoicesStateToken) private readonly flow: VoicesState,
  ) {
    const { api } = s;
    this.usage = new RemoteStore(() => api.call(API.site.protocol, { type: 'clone' }, { silent: true }).then((r) => r.content, () => ''));
    this.channels = new RemoteStore(async (signal) => (await api.call(API.voices.channels, {}, { silent: true, signal })).list);
    // Each step as it opens: what it needs is asked for, its fields start from the flow.
    flow.flow$.pipe(distinctUntilChanged((a, b) => a.step === b.step && a.target === b.target)).subscribe((f) => this.opened(f));
  }

  private opened(f: CloneFlowState) {
    if (f.step !== 'channel') clearTimeout(this.choice);
    if (f.step === 'notice' && this.usage.value === undefined) this.usage.reload();
    if (f.step === 'channel') {
      this.picked$.next(f.channel?.api ?? null);
      this.channels.reload();
    }
    if (f.step === 'form') {
      this.name$.next(f.target?.name ?? '');
      // A modify needs the voice's channel (its upload tip); a new clone has the picked one.
      if (f.target) this.channels.reload();
    }
  }

  /** The channel the form clones on: the voice's own for a modify, else the one picked. */
  get channel(): VoiceChannel | null {
    const { target, channel } = this.flow.flow$.value;
    return target ? channelOf(target, this.channels.value ?? []) : channel;
  }

  /** A click in the picker: the choice settles after the last click, then the clone form opens. */
  choose(channel: VoiceChannel): void {
    this.picked$.next(channel.api);
    clearTimeout(this.choice);
    this.choice = setTimeout(() => this.flow.channelChosen(channel), LIMITS.channelChoiceDebounceMs);
  }

  close(): void {
    clearTimeout(this.choice);
    this.flow.closeClone();
  }

  /** An uploaded recording outside the allowed length is refused here (said, not kept). */
  audioUploaded(file: UploadedFile): void {
    this.uploading$.next(false);
    const problem = checkAudioDuration(file.duration);
    if (problem) return this.s.notifier.warn(problem);
    this.audio$.next(file);
  }

  /** 开始克隆 / 提交修改: a success closes the dialog, says the voices changed and shows 我的声音; a refusal keeps the form. */
  async start(): Promise<boolean> {
    const channel = this.channel;
    if (!this.gate() || !channel) return false;
    const { target } = this.flow.flow$.value;
    const audio = this.audio$.value;
    const problem = cloneFormProblem(this.name$.value, audio?.file_id ?? null);
    if (problem) {
      this.s.notifier.warn(problem);
      return false;
    }
    const params = { ...(target ? { id: target.id } : {}), name: this.name$.value.trim(), file_id: audio!.file_id, api: channel.api as ChannelApi, voice_channel_name: channel.name };
    if (!(await runBusy(this.submitting$, () => this.s.api.call(API.voices.create, params)))) return false;
    this.s.notifier.success(target ? MSG.modifySucceeded : MSG.cloneSubmitted);
    this.flow.closeClone();
    this.flow.notifyChanged();
    const here = this.s.navigation.current;
    if (here.path !== CLONE_ROUTE || here.query.id === '2') this.s.navigation.navigate(CLONE_ROUTE, { id: 1 });
    return true;
  }

  /** The clone dialog has closed: the next one starts empty. */
  reset(): void {
    this.name$.next('');
    this.audio$.next(null);
    this.uploading$.next(false);
    this.submitting$.next(false);
  }
}
