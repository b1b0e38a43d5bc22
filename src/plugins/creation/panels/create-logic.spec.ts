import { describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, effectOrderTip, pauseMarker, workNameOr, type VideoChannel, type Voice } from '../../../contract';
import {
  preferredChannel,
  DEFAULT_SLIDERS, WORKS_AFTER_SUBMIT, afterRefusal, applyPatch, auditionKey, auditionProblem, auditionRequest, buildSubmission, cachedAudition,
  channelProblem, createDraftRules, disabledSliders, emptyDraft, hasUnsavedText, estimatePrice, parseCreateQuery, photoOf, sentParams, submitProblem, voicePickProblem, withAudition,
  type CreateDraft,
} from './create-logic';
import { checkDriveAudio, checkDriveDuration } from './ScriptPane';

const voice = (over: Partial<Voice> = {}): Voice => ({
  id: 7, name: '公共·女声', url: '/s.mp3', api: 'local', type: 0, remained_times: 0, version_name: '1.0', voice_channel_name: '离线声音', generate_status: 2,
  rate: 1, volume: 1, pitch: 1, source: 2, file_id: 0, ...over,
});
const avatar = { kind: 'avatar' as const, id: 3, name: '主播', cover: '', url: '/a.mp4', duration: 6 };
const ready = (over: Partial<CreateDraft> = {}): CreateDraft => ({ ...emptyDraft(), avatar, voice: voice(), text: `你好${pauseMarker(0.5)}世界`, ...over });

describe('/create checks, in the spec’s order and words', () => {
  it('submit: avatar, then text, then voice (text mode); avatar, then the audio (audio mode); the limit', () => {
    expect(submitProblem(emptyDraft())).toBe(MSG.avatarRequired);
    expect(submitProblem({ ...emptyDraft(), avatar })).toBe(MSG.scriptRequired);
    // Pause markers and emotion marks alone are no text.
    expect(submitProblem({ ...emptyDraft(), avatar, text: `${pauseMarker(1)} (laughs)` })).toBe(MSG.scriptRequired);
    expect(submitProblem({ ...emptyDraft(), avatar, text: '你好' })).toBe(MSG.voiceRequired);
    expect(submitProblem(ready({ voice: voice({ generate_status: 1 }) }))).toBe(MSG.voiceTraining);
    expect(submitProblem(ready({ voice: voice({ generate_status: 3 }) }))).toBe(MSG.voiceFailed);
    expect(submitProblem(ready({ voice: voice({ api: 'nw' }), text: '字'.repeat(501) }))).toBe(MSG.scriptTooLong(500));
    expect(submitProblem(ready({ text: '字'.repeat(10_000) + pauseMarker(2) }))).toBeNull();
    expect(submitProblem(ready({ text: '字'.repeat(10_001) }))).toBe(MSG.scriptTooLong(10_000));
    expect(submitProblem(ready())).toBeNull();
    expect(submitProblem({ ...emptyDraft(), mode: 'audio' })).toBe(MSG.avatarRequired);
    expect(submitProblem({ ...emptyDraft(), mode: 'audio', avatar })).toBe(MSG.audioFileRequired);
    // Audio mode needs neither text nor a voice.
    expect(submitProblem({ ...emptyDraft(), mode: 'audio', avatar, audio: { kind: 'upload', id: 9, name: 'a.mp3', url: '' } })).toBeNull();
  });

  it('audition: text and a voice, and only a usable voice', () => {
    expect(auditionProblem({ text: '', voice: voice() })).toBe(MSG.auditionNeedsTextAndVoice);
    expect(auditionProblem({ text: '你好', voice: null })).toBe(MSG.auditionNeedsTextAndVoice);
    expect(auditionProblem({ text: pauseMarker(1), voice: voice() })).toBe(MSG.auditionNeedsTextAndVoice);
    expect(auditionProblem({ text: '你好', voice: voice({ generate_status: 1 }) })).toBe(MSG.voiceTraining);
    expect(auditionProblem({ text: '你好', voice: voice() })).toBeNull();
  });

  it('training and failed voices cannot be chosen', () => {
    expect(voicePickProblem({ generate_status: 1 })).toBe('声音训练中，暂时无法选择');
    expect(voicePickProblem({ generate_status: 3 })).toBe('声音训练失败，无法选择');
    expect(voicePickProblem({ generate_status: 2 })).toBeNull();
    expect(voicePickProblem({ generate_status: 0 })).toBeNull();
  });

  it('channel gj needs an avatar of 30 to 300 s', () => {
    expect(channelProblem('local', { duration: 6 })).toBeNull();
    expect(channelProblem('gj', { duration: 6 })).toBe(MSG.gjDurationInvalid);
    expect(channelProblem('gj', { duration: 301 })).toBe(MSG.gjDurationInvalid);
    expect(channelProblem('gj', { duration: undefined })).toBe(MSG.gjDurationInvalid);
    expect(channelProblem('gj', { duration: 30 })).toBeNull();
    expect(channelProblem('gj', { duration: 300 })).toBeNull();
  });

  it('audio mode: mp3, m4a, wav, 5 s to 30 min', () => {
    expect(checkDriveAudio({ name: 'a.mp3', size: 1000 })).toBeNull();
    expect(checkDriveAudio({ name: 'A.WAV', size: 1000 })).toBeNull();
    expect(checkDriveAudio({ name: 'a.m4a', size: 1000 })).toBeNull();
    expect(checkDriveAudio({ name: 'a.ogg', size: 1000 })).toBe(MSG.audioInvalid);
    expect(checkDriveDuration(4.9)).toBe(MSG.audioDurationInvalid);
    expect(checkDriveDuration(1801)).toBe(MSG.audioDurationInvalid);
    expect(checkDriveDuration(5)).toBeNull();
    expect(checkDriveDuration(undefined)).toBeNull();
  });
});

describe('the audition cache', () => {
  const cached = () => {
    const d = ready();
    return withAudition(d, { key: auditionKey(d), url: '/au.mp3', file_id: 41 });
  };

  it('is kept only for the draft it was made for', () => {
    const d = ready();
    const changed = applyPatch(d, { text: '别的' });
    expect(withAudition(changed, { key: auditionKey(d), url: '/au.mp3', file_id: 41 }).audition).toBeNull();
    expect(cachedAudition(cached())?.file_id).toBe(41);
  });

  it('is cleared by editing the text, the emotion or the language, or by another voice', () => {
    expect(applyPatch(cached(), { text: '你好世界' }).audition).toBeNull();
    expect(applyPatch(cached(), { language: 'en' }).audition).toBeNull();
    expect(applyPatch(cached(), { voice: voice({ id: 8 }) }).audition).toBeNull();
    const mm = (() => {
      const d = ready({ voice: voice({ api: 'mm' }) });
      return withAudition(d, { key: auditionKey(d), url: '/au.mp3', file_id: 41 });
    })();
    expect(applyPatch(mm, { emotion: 'happy' }).audition).toBeNull();
    // A public voice's confirmed parameters change what it says.
    expect(applyPatch(cached(), { params: { ...DEFAULT_SLIDERS, rate: 1.5 } }).audition).toBeNull();
  });

  it('survives what does not change the speech: the name, the avatar, the channel, the same text again', () => {
    expect(applyPatch(cached(), { name: '新名字' }).audition).not.toBeNull();
    expect(applyPatch(cached(), { avatar: { ...avatar, id: 4 } }).audition).not.toBeNull();
    expect(applyPatch(cached(), { channel: 'gj' }).audition).not.toBeNull();
    expect(applyPatch(cached(), { text: cached().text }).audition).not.toBeNull();
    expect(applyPatch(cached(), { voice: cached().voice }).audition).not.toBeNull();
    // An own voice's sliders are its saved settings, not sent: they do not touch the cache.
    const own = (() => {
      const d = ready({ voice: voice({ source: 1 }) });
      return withAudition(d, { key: auditionKey(d), url: '/au.mp3', file_id: 41 });
    })();
    expect(applyPatch(own, { params: { ...DEFAULT_SLIDERS, rate: 1.5 } }).audition).not.toBeNull();
  });

  it('a new voice starts from its own settings, its default language and emotion', () => {
    const d = applyPatch(ready({ language: 'en', emotion: 'sad' }), { voice: voice({ id: 9, rate: 1.3, volume: 0.8 }) });
    expect(d.params).toEqual({ rate: 1.3, volume: 0.8, pitch: 1 });
    expect(d.language).toBe('');
    expect(d.emotion).toBe('default');
  });

  it('a refused submission clears the cache, the pending audio and the text', () => {
    const d = afterRefusal({ ...cached(), audio: { kind: 'upload', id: 1, name: 'a.mp3', url: '' } });
    expect(d.audition).toBeNull();
    expect(d.audio).toBeNull();
    expect(d.text).toBe('');
    expect(d.avatar).toEqual(avatar);
  });
});

describe('voice parameters', () => {
  it('speed is off for nw; volume and pitch for fish and nw', () => {
    expect(disabledSliders('local')).toEqual({ rate: false, volume: false, pitch: false });
    expect(disabledSliders('mm')).toEqual({ rate: false, volume: false, pitch: false });
    expect(disabledSliders('fish')).toEqual({ rate: false, volume: true, pitch: true });
    expect(disabledSliders('nw')).toEqual({ rate: true, volume: true, pitch: true });
    expect(sentParams('fish', { rate: 1.2, volume: 2, pitch: 0.5 })).toEqual({ rate: 1.2 });
    expect(sentParams('nw', { rate: 1.2, volume: 2, pitch: 0.5 })).toEqual({});
  });
});

describe('what is sent', () => {
  const params = { rate: 1.2, volume: 0.8, pitch: 1.1 };

  it('a public voice carries its parameters, an own voice does not', () => {
    const pub = ready({ params, name: '' });
    // Left unnamed, the work is named after the script's first words (pauses dropped).
    expect(buildSubmission(pub, 'local', 41)).toEqual({
      name: '你好世界', api: 'local', video_id: 3, drive: 'text', text: pub.text, user_voice_id: 7, rate: 1.2, volume: 0.8, pitch: 1.1, voice_id: 41,
    });
    expect(auditionRequest(pub)).toEqual({ voice_id: 7, text: pub.text, rate: 1.2, volume: 0.8, pitch: 1.1 });
    const own = ready({ params, voice: voice({ source: 1 }), name: '我的作品' });
    expect(buildSubmission(own, 'local')).toEqual({ name: '我的作品', api: 'local', video_id: 3, drive: 'text', text: own.text, user_voice_id: 7 });
    expect(auditionRequest(own)).toEqual({ voice_id: 7, text: own.text });
    // Language when chosen; emotion only on a channel that has emotions.
    const mm = applyPatch(ready(), { voice: voice({ api: 'mm', source: 1 }) });
    expect(buildSubmission({ ...mm, emotion: 'happy', language: 'zh' }, 'local')).toMatchObject({ emotion: 'happy', language: 'zh' });
    expect(buildSubmission({ ...ready(), emotion: 'happy' }, 'local')).not.toHaveProperty('emotion');
  });

  it('audio mode carries the audio, not the text or the voice; a material video or audio goes by its own field', () => {
    const upload = { ...ready({ mode: 'audio' }), audio: { kind: 'upload' as const, id: 12, name: 'a.mp3', url: '' } };
    // Left unnamed, an audio-driven work is named after its audio.
    expect(buildSubmission(upload, 'local')).toEqual({ name: 'a', api: 'local', video_id: 3, drive: 'audio', voice_id: 12 });
    const material = { ...upload, avatar: { ...avatar, kind: 'material' as const, id: 5 }, audio: { ...upload.audio, kind: 'material' as const, id: 13 } };
    expect(buildSubmission(material, 'local')).toEqual({ name: 'a', api: 'local', material_video_id: 5, drive: 'audio', material_audio_id: 13 });
  });

  it('sends burned-in captions with their look only when they are on; a stored draft keeps the choice', () => {
    expect(buildSubmission(ready(), 'local')).not.toHaveProperty('subtitles');
    const on = ready({ subtitles: { on: true, size: 'L', position: 'middle', color: 'yellow' } });
    expect(buildSubmission(on, 'local')).toMatchObject({ subtitles: 1, subtitle_size: 'L', subtitle_position: 'middle', subtitle_color: 'yellow' });
    expect(createDraftRules.revive(JSON.parse(JSON.stringify(on)))?.subtitles).toEqual(on.subtitles);
    expect(createDraftRules.revive({ subtitles: { on: true, size: 'XL', color: 'red' } })?.subtitles).toEqual({ on: true, size: 'M', position: 'bottom', color: 'white' });
  });

  it('passes the contract’s own checks', () => {
    const request = buildSubmission(ready({ params }), 'local', 41);
    expect(API.works.create.request.safeParse(request).success).toBe(true);
    expect(API.voices.audition.request.safeParse(auditionRequest(ready({ params }))).success).toBe(true);
  });
});

describe('the address and the rest', () => {
  it('reads id, hs, source=3, origin=audio with audioId, type=fk', () => {
    expect(parseCreateQuery({ id: '12', hs: '1' })).toEqual({ avatarId: 12, orientation: 1, material: false, audioId: null, storedText: false, photoSource: null });
    // The picture screens: source 1 my upload, 2 the AI library; sc marks the material library.
    expect(parseCreateQuery({ id: '4', source: '2' })).toMatchObject({ avatarId: 4, photoSource: 2, material: false });
    expect(parseCreateQuery({ id: '4', source: '1' })).toMatchObject({ photoSource: 1 });
    expect(parseCreateQuery({ id: '4', sc: '1' })).toMatchObject({ material: true, photoSource: null });
    expect(parseCreateQuery({ id: '5', source: '3' })).toMatchObject({ avatarId: 5, material: true });
    expect(parseCreateQuery({ origin: 'audio', audioId: '9' })).toMatchObject({ audioId: 9 });
    expect(parseCreateQuery({ audioId: '9' })).toMatchObject({ audioId: null });
    expect(parseCreateQuery({ type: 'fk' })).toMatchObject({ storedText: true });
    expect(parseCreateQuery({ id: 'x', hs: '3' })).toMatchObject({ avatarId: null, orientation: null });
  });

  it('submits a picture as photo_id, shown as its image', () => {
    const picture = photoOf({ id: 9, name: '旺财', url: '/p.png', cover: '/c.jpg', source: 2, type: 2 });
    expect(picture).toEqual({ kind: 'photo', id: 9, name: '旺财', cover: '/p.png', url: '' });
    const sent = buildSubmission(ready({ avatar: picture }), 'lip', 11);
    expect(sent).toMatchObject({ api: 'lip', photo_id: 9, voice_id: 11 });
    expect(sent).not.toHaveProperty('video_id');
    expect(API.works.create.request.safeParse(sent).success).toBe(true);
  });

  it('goes to the works page’s digital-human tab; prices the estimate', () => {
    expect(WORKS_AFTER_SUBMIT).toEqual({ path: '/works', query: { type1: 0, type2: 1 } });
    expect(estimatePrice(10.2, 2)).toBe(21);
  });
});

describe('the stored draft', () => {
  it('keeps everything but the audition, opens a draft of another version field by field, and stores nothing for an empty page', () => {
    const d = ready({ name: '新品介绍', mode: 'audio', audio: { kind: 'upload', id: 4, name: 'a.mp3', url: '/a.mp3', duration: 9 }, channel: 'mm', params: { rate: 1.2, volume: 1, pitch: 0.9 } });
    const withCache = { ...d, audition: { key: auditionKey(d), url: '/x.mp3', file_id: 5 } };
    const stored = JSON.parse(JSON.stringify(createDraftRules.keep(withCache)));
    expect(createDraftRules.revive(stored)).toEqual({ ...d, audition: null });
    expect(createDraftRules.revive({ text: '旧版本的稿子', avatar: { id: 'x' }, mode: 'video' })).toEqual({ ...emptyDraft(), text: '旧版本的稿子' });
    expect(createDraftRules.revive('garbage')).toBeNull();
    expect(createDraftRules.isEmpty(emptyDraft())).toBe(true);
    expect(createDraftRules.isEmpty({ ...emptyDraft(), avatar })).toBe(false);
    expect(hasUnsavedText(emptyDraft())).toBe(false);
    expect(hasUnsavedText(d)).toBe(true);
  });
});

describe('the channel to preselect and the effect order (issue 33)', () => {
  const ch = (api: string, name: string, version_name: string): VideoChannel => ({ api, name, version_name, desc: '', credits: 1 });
  // As the server lists them: by the operator's sort, not by version.
  const offered = [ch('local', '本地合成', '1.0'), ch('lip', '本地口型', '1.5'), ch('free', '免费通道', '')];

  it('the last choice while it is offered, else the highest version', () => {
    expect(preferredChannel(offered, '')?.api).toBe('lip');
    expect(preferredChannel(offered, 'local')?.api).toBe('local');
    expect(preferredChannel(offered, 'fy')?.api).toBe('lip');
    expect(preferredChannel([...offered, ch('fy', '深度训练', '3.0')], '')?.api).toBe('fy');
    expect(preferredChannel([], 'local')).toBeUndefined();
  });

  it('names the channels offered, best first', () => {
    expect(effectOrderTip(offered)).toBe(MSG.effectOrder(['1.5 本地口型', '1.0 本地合成', '免费通道']));
    expect(effectOrderTip(offered)).not.toContain('3.0');
  });
});

describe('a work left 未命名 (issue 33)', () => {
  it('is named after the script\'s first 12 characters, else the other name, else 未命名; a name given wins', () => {
    expect(workNameOr(LIMITS.defaultWorkName, `(laughs)  大家好，${pauseMarker(1)}欢迎来到我的直播间，今天聊聊新品`)).toBe('大家好，欢迎来到我的直播间，'.slice(0, 12));
    expect(workNameOr('', '', '小美')).toBe('小美');
    expect(workNameOr(' ', '')).toBe(LIMITS.defaultWorkName);
    expect(workNameOr('我的作品', '大家好')).toBe('我的作品');
  });
});
