import { describe, expect, it } from 'vitest';
import { expectAnswers } from '../../../tests/support/react-host';
import { expectNameThenFile } from '../../../tests/support/clone-form';
import { LIMITS, MSG, VOICE_TYPE_NAME_LOCKED, type Voice, type VoiceChannel } from '../../contract';
import { AUDIO_SAMPLE, audioRequirements, channelOf, channelPrice, checkAudioDuration, checkCloneAudio, cloneFormProblem, DEFAULT_UPLOAD_TIPS, failureReason, modifyRefusal, pickableChannels, shortRecording, showsFreeTimes, statusLine, statusTone, tabFromQuery, uploadTips, voiceActions, voicePhase } from './voice-view';

const voice = (over: Partial<Voice> = {}): Voice => ({
  id: 1, name: '我的声音', url: '/storage/1/a.mp3?sig', api: 'local', type: 0, remained_times: 2, version_name: '1.0', voice_channel_name: '本地克隆',
  generate_status: 2, rate: 1, volume: 1, pitch: 1, source: 1, file_id: 7, ...over,
});
const channel = (over: Partial<VoiceChannel> = {}): VoiceChannel => ({
  api: 'local', name: '本地克隆', desc: '', version_name: '1.0', credits: 0, free_times: 0, train_times: 3, upload_tips: '', language: '', ...over,
});

describe('voice status', () => {
  it('reads generate_status: 1 training, 3 failed, anything else ready', () => {
    expectAnswers(voicePhase, [
      [voice({ generate_status: 1 }), 'training'],
      [voice({ generate_status: 3 }), 'failed'],
      [voice({ generate_status: 2 }), 'ready'],
      [voice({ generate_status: 0 }), 'ready'],
    ]);
  });

  it('writes the status line: 训练中, 失败, 可修改N次 or 不可修改', () => {
    expectAnswers(statusLine, [
      [voice({ generate_status: 1, remained_times: 3 }), '训练中'],
      [voice({ generate_status: 3, remained_times: 3 }), '失败'],
      [voice({ remained_times: 3 }), '可修改3次'],
      [voice({ remained_times: 1 }), '可修改1次'],
      [voice({ remained_times: 0 }), '不可修改'],
    ]);
    expectAnswers(statusTone, [
      [voice({ remained_times: 0 }), 'fixed'],
      [voice({ remained_times: 2 }), 'modifiable'],
      [voice({ generate_status: 1 }), 'training'],
    ]);
  });
});

describe('card popover actions', () => {
  it('renames unless the name is locked (type 11)', () => {
    expect(voiceActions(voice()).rename).toBe(true);
    expect(voiceActions(voice({ type: VOICE_TYPE_NAME_LOCKED })).rename).toBe(false);
  });

  it('modifies only when not in progress and remained_times > 0, and not after the confirmation', () => {
    expect(voiceActions(voice({ remained_times: 2 })).modify).toBe(true);
    expect(voiceActions(voice({ remained_times: 0 })).modify).toBe(false);
    expect(voiceActions(voice({ generate_status: 1, remained_times: 2 })).modify).toBe(false);
    expect(voiceActions(voice({ generate_status: 3, remained_times: 2 })).modify).toBe(true);
    expect(voiceActions(voice({ remained_times: 2, confirmed: 1 })).modify).toBe(false);
  });

  it('deletes only when remained_times = 0', () => {
    expect(voiceActions(voice({ remained_times: 0 })).remove).toBe(true);
    expect(voiceActions(voice({ remained_times: 1 })).remove).toBe(false);
    expect(voiceActions(voice({ generate_status: 1, remained_times: 0 })).remove).toBe(false);
    expect(voiceActions(voice({ generate_status: 3, remained_times: 0 })).remove).toBe(true);
  });

  it('confirms a generated voice once', () => {
    expect(voiceActions(voice()).confirm).toBe(true);
    expect(voiceActions(voice({ confirmed: 0 })).confirm).toBe(true);
    expect(voiceActions(voice({ confirmed: 1 })).confirm).toBe(false);
    expect(voiceActions(voice({ generate_status: 1 })).confirm).toBe(false);
    expect(voiceActions(voice({ generate_status: 3 })).confirm).toBe(false);
  });

  it('plays when there is a sample', () => {
    expect(voiceActions(voice()).play).toBe(true);
    expect(voiceActions(voice({ url: '' })).play).toBe(false);
  });

  it('gives the failure reason, or a plain fallback', () => {
    expect(failureReason({ ...voice({ generate_status: 3 }), reason: '样本太短' } as Voice)).toBe('样本太短');
    expect(failureReason(voice({ generate_status: 3 }))).toMatch(/训练失败/);
  });

  it('refuses to edit a voice of channel xf with the spec message', () => {
    expect(modifyRefusal(voice({ api: 'xf' }))).toBe(MSG.voiceXfEditRefused);
    expect(MSG.voiceXfEditRefused).toBe('该渠道的声音，仅支持手持设备的录音修改！');
    expect(modifyRefusal(voice({ api: 'fish' }))).toBeNull();
  });
});

describe('channels', () => {
  it('hides the channel whose api is xf', () => {
    const list = [channel({ api: 'fish' }), channel({ api: 'xf' }), channel({ api: 'local' })];
    expect(pickableChannels(list).map((c) => c.api)).toEqual(['fish', 'local']);
    expect(pickableChannels([])).toEqual([]);
  });

  it('shows 免费 for 0 credits, else the credits per clone', () => {
    expect(channelPrice(channel({ credits: 0 }))).toBe('免费');
    expect(channelPrice(channel({ credits: 200 }))).toBe('200 积分/次');
  });

  it('shows the free clones left only on a paid channel, never 免费 beside 剩余免费 0 次', () => {
    expectAnswers(showsFreeTimes, [
      [channel({ credits: 0, free_times: 0 }), false],
      [channel({ credits: 100, free_times: 0 }), true],
      [channel({ credits: 100, free_times: 1 }), true],
    ]);
  });

  it("shows the channel's upload tip, or the 3-5 minutes advice", () => {
    expect(uploadTips(channel({ upload_tips: '请上传10分钟以内的录音' }))).toBe('请上传10分钟以内的录音');
    expect(uploadTips(channel({ upload_tips: '  ' }))).toBe(DEFAULT_UPLOAD_TIPS);
    expect(uploadTips(null)).toMatch(/3~5 分钟/);
  });

  it('lists the requirements: formats, 20 MB, 5 s to 30 min, 10 s advised, the tip', () => {
    const lines = audioRequirements(null).join('\n');
    for (const part of ['MP3 / M4A / WAV', `${LIMITS.audio.maxBytes / 1024 / 1024}MB`, '5 秒 ~ 30 分钟', '至少 10 秒', '3~5 分钟']) expect(lines).toContain(part);
    expect(LIMITS.audio.maxBytes).toBe(20 * 1024 * 1024);
  });

  it('finds the channel of a voice for modify, or stands in with its own words', () => {
    const fish = channel({ api: 'fish', name: '鱼声', upload_tips: 'tip' });
    expect(channelOf(voice({ api: 'fish' }), [fish])).toBe(fish);
    const stand = channelOf(voice({ api: 'mm', voice_channel_name: '海螺' }), [fish]);
    expect(stand.api).toBe('mm');
    expect(stand.name).toBe('海螺');
  });
});

describe('clone form', () => {
  it('checks the audio: MP3/M4A/WAV up to 20 MB', () => {
    expect(checkCloneAudio({ name: 'me.mp3', size: 1000 })).toBeNull();
    expect(checkCloneAudio({ name: 'ME.M4A', size: 1000 })).toBeNull();
    expect(checkCloneAudio({ name: 'a.wav', size: LIMITS.audio.maxBytes })).toBeNull();
    expectAnswers(checkCloneAudio, [
      [{ name: 'a.wav', size: LIMITS.audio.maxBytes + 1 }, MSG.audioTooLarge(20)],
      [{ name: 'a.ogg', size: 1000 }, MSG.audioInvalid],
      [{ name: 'mp3', size: 1000 }, MSG.audioInvalid],
      [{ name: 'a.mp3', size: 0 }, MSG.audioInvalid],
    ]);
  });

  it('checks the length: 5 s to 30 min; under 10 s is only advised against', () => {
    expect(checkAudioDuration(undefined)).toBeNull();
    expect(checkAudioDuration(4.9)).toBe(MSG.audioDurationInvalid);
    expect(checkAudioDuration(5)).toBeNull();
    expect(checkAudioDuration(30 * 60)).toBeNull();
    expect(checkAudioDuration(30 * 60 + 1)).toBe(MSG.audioDurationInvalid);
    expectAnswers(shortRecording, [
      [6, true],
      [10, false],
      [undefined, false],
    ]);
  });

  it('hints at the recording: MP3 / M4A / WAV, 20 MB, 5 s to 30 min', () => {
    expect(AUDIO_SAMPLE.hint).toBe('MP3 / M4A / WAV，20MB 以内，时长 5 秒 ~ 30 分钟');
  });

  it('asks for the name first, then the audio', () => {
    expectNameThenFile(cloneFormProblem, MSG.voiceNameRequired, MSG.voiceAudioRequired);
  });
});

describe('tabs', () => {
  it('reads /clone?id= (default 1)', () => {
    expectAnswers(tabFromQuery, [
      [{}, 1],
      [{ id: '1' }, 1],
      [{ id: '2' }, 2],
      [{ id: 'x' }, 1],
    ]);
  });
});
