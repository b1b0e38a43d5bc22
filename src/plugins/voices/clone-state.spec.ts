import { describe, expect, it, vi } from 'vitest';
import { API, LIMITS, MSG, type Voice, type VoiceChannel } from '../../contract';
import { TIMINGS, type Location, type Navigation, type UploadedFile } from '../../core';
import { fakeApi, fakeClock, screenServices } from '../../../tests/support/fake-api';
import { recordingNotifier } from '../../../tests/support/notes';
import { CloneState } from './clone-state';
import { CLONE_ROUTE } from './voices-commands';
import { VoicesState } from './voices-state';

const { notes, notifier } = recordingNotifier();
const channel = (api: string, credits = 0): VoiceChannel => ({ api, name: `渠道${api}`, desc: '', version_name: '', credits, free_times: 0, train_times: 3, upload_tips: '', language: '' });
const CHANNELS = [channel('local'), channel('fish', 50)];
const AUDIO = { file_id: 5, url: '/a.mp3', duration: 30 } as unknown as UploadedFile;
const VOICE = { id: 9, name: '我的声音', api: 'fish', type: 0, voice_channel_name: '渠道fish', version_name: '' } as Voice;

function setup(replies: Record<string, unknown> = {}, at: Location = { path: '/create', query: {} }) {
  const api = fakeApi({ [API.site.protocol.id]: { content: '<p>规则</p>' }, [API.voices.channels.id]: { list: CHANNELS }, ...replies });
  const navigation = { current: at, navigate: vi.fn() } as unknown as Navigation;
  const flow = new VoicesState();
  const changed = vi.fn();
  flow.changed$.subscribe(changed);
  const clone = new CloneState(screenServices({ api, notifier, navigation }), flow);
  return { api, navigation, flow, changed, clone };
}

const settle = fakeClock();

describe('clone flow state', () => {
  it('asks for the usage rules the first time the notice opens; unreadable rules fall back to the built-in ones', async () => {
    const t = setup();
    t.flow.openClone();
    await settle();
    expect(t.clone.usage.value).toBe('<p>规则</p>');
    t.flow.closeClone();
    t.flow.openClone();
    expect(t.api.count(API.site.protocol)).toBe(1);

    const failing = setup({ [API.site.protocol.id]: new Error('服务器繁忙') });
    failing.flow.openClone();
    await settle();
    expect(failing.clone.usage.value).toBe('');
  });

  it('the picker asks for the channels, highlights a click at once and opens the form once the choice settles', async () => {
    const t = setup();
    t.flow.openClone();
    t.flow.noticeAgreed();
    await settle();
    expect(t.clone.channels.value).toEqual(CHANNELS);
    t.clone.choose(CHANNELS[0]!);
    await settle(LIMITS.channelChoiceDebounceMs - 100);
    t.clone.choose(CHANNELS[1]!);
    expect(t.clone.picked$.value).toBe('fish');
    await settle(LIMITS.channelChoiceDebounceMs - 1);
    expect(t.flow.flow$.value.step).toBe('channel');
    await settle(1);
    expect(t.flow.flow$.value).toMatchObject({ step: 'form', channel: CHANNELS[1] });
    expect(t.clone.channel).toBe(CHANNELS[1]);

    // Back to the picker: the channel stays highlighted; closing drops a choice still settling.
    t.flow.changeChannel();
    expect(t.clone.picked$.value).toBe('fish');
    t.clone.choose(CHANNELS[0]!);
    t.clone.close();
    await settle(LIMITS.channelChoiceDebounceMs * 2);
    expect(t.flow.flow$.value.step).toBe('closed');
  });

  it('refuses a recording of the wrong length, says what is missing, and starts a clone once a throttle window', async () => {
    const t = setup({ [API.voices.create.id]: { id: 11 } });
    t.flow.channelChosen(CHANNELS[1]!);
    t.clone.audioUploaded({ ...AUDIO, duration: 2 });
    expect([t.clone.audio$.value, notes]).toEqual([null, [{ kind: 'warn', message: MSG.audioDurationInvalid }]]);
    expect(await t.clone.start()).toBe(false);
    expect(notes.at(-1)).toEqual({ kind: 'warn', message: MSG.voiceNameRequired });
    t.clone.name$.next(' 新声音 ');
    t.clone.audioUploaded(AUDIO);
    expect(await t.clone.start()).toBe(false); // within the throttle window: dropped
    expect(notes).toHaveLength(2);
    await settle(TIMINGS.cloneThrottleMs);
    expect(await t.clone.start()).toBe(true);
    expect(t.api.calls.at(-1)).toEqual({ id: API.voices.create.id, params: { name: '新声音', file_id: 5, api: 'fish', voice_channel_name: '渠道fish' } });
    expect([t.flow.flow$.value.step, t.changed.mock.calls.length, notes.at(-1)]).toEqual(['closed', 1, { kind: 'success', message: MSG.cloneSubmitted }]);
    expect(t.navigation.navigate).toHaveBeenCalledWith(CLONE_ROUTE, { id: 1 });
    t.clone.reset();
    expect([t.clone.name$.value, t.clone.audio$.value]).toEqual(['', null]);
  });

  it('a modify starts from the voice: its name, its own channel, its id; a refusal keeps the dialog and the form', async () => {
    const t = setup({ [API.voices.create.id]: new Error(MSG.insufficientCredits) }, { path: CLONE_ROUTE, query: { id: '1' } });
    t.flow.openModify(VOICE);
    expect(t.clone.name$.value).toBe('我的声音');
    await settle();
    expect(t.clone.channel).toBe(CHANNELS[1]);
    t.clone.audioUploaded(AUDIO);
    expect(await t.clone.start()).toBe(false);
    expect(t.api.calls.at(-1)?.params).toMatchObject({ id: 9, api: 'fish' });
    expect([t.flow.flow$.value.step, t.clone.audio$.value, t.clone.submitting$.value, t.changed.mock.calls.length]).toEqual(['form', AUDIO, false, 0]);
    expect(t.navigation.navigate).not.toHaveBeenCalled();
  });
});
