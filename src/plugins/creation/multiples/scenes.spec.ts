import { describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, MULTI_SCENE_API, estimateSeconds, pauseMarker, type Avatar, type Voice } from '../../../contract';
import { addScene, applyVoiceToAll, auditionKey, auditionRequest, buildSubmission, cachedAudition, canAddScene, checkSceneAudio, draftProblem, emptyDraft, estimateDraft, formatSeconds, hasSpeech, moveScene, newScene, priceOf, removeScene, resetSceneSliders, sceneAvatarOf, sceneItem, sceneLimit, setSceneAudio, setSceneAudition, setSceneAvatar, setSceneSlider, setSceneText, setSceneType, setSceneVoice, worksQuery, type MultiDraft, type Scene } from './scenes';
import { formatClock } from '../../../core';

const voice = (id: number, over: Partial<Voice> = {}): Voice => ({
  id, name: `声音${id}`, url: `/storage/v${id}.mp3`, api: 'local', type: 0, remained_times: 0, version_name: '1.0', voice_channel_name: '离线声音',
  generate_status: 2, rate: 1, volume: 1, pitch: 1, source: 2, file_id: id * 10, ...over,
});
const avatar = (id: number, over: Partial<Avatar> = {}): Avatar => ({
  id, name: `数字人${id}`, url: `/storage/a${id}.mp4`, cover: `/storage/a${id}.jpg`, cover_small: `/storage/a${id}s.jpg`, source: 2, status: 3,
  duration: 6, orientation: 2, ...over,
});

/** A draft with scenes of known ids. */
function draftOf(...types: ('text' | 'audio')[]): MultiDraft {
  return { ...emptyDraft(), scenes: types.map((t, i) => newScene(t, null, `s${i + 1}`)) };
}
const ids = (d: MultiDraft) => d.scenes.map((s) => s.id);
const scene = (d: MultiDraft, id: string) => d.scenes.find((s) => s.id === id)!;

/** A complete text scene and a complete audio scene. */
function readyDraft(): MultiDraft {
  let d = draftOf('text', 'audio');
  d = setSceneText(d, 's1', `大家好${pauseMarker(0.5)}欢迎来到直播间`);
  d = setSceneVoice(d, 's1', voice(7, { rate: 1.2 }));
  d = setSceneAvatar(d, 's1', sceneAvatarOf(avatar(3)));
  d = setSceneAvatar(d, 's2', sceneAvatarOf(avatar(4, { orientation: 1, duration: 12.5 })));
  d = setSceneAudio(d, 's2', { file_id: 55, url: '/storage/x.mp3', name: 'x.mp3', duration: 6.2 });
  return d;
}

describe('the scene list', () => {
  it('starts with one text scene named 未命名, serial, video', () => {
    const d = emptyDraft();
    expect(d.name).toBe(LIMITS.defaultWorkName);
    expect(d.scenes.map((s) => s.type)).toEqual(['text']);
    expect(d.driveMode).toBe('serial');
    expect(d.outputMode).toBe('video');
    expect(d.scenes[0]).toMatchObject({ text: '', voice: null, avatar: null, audio: null, audition: null, rate: 1, volume: 1, pitch: 1 });
  });

  it('adds text and audio scenes like the last one (avatar, voice, sliders), never its text or audio', () => {
    let d = readyDraft();
    d = setSceneSlider(d, 's2', 'pitch', 1.5);
    d = setSceneVoice(d, 's2', voice(9));
    d = addScene(d, 'text', 'n1');
    const added = scene(d, 'n1');
    expect(added).toMatchObject({ type: 'text', text: '', audio: null, audition: null });
    expect(added.avatar?.id).toBe(4);
    expect(added.voice?.id).toBe(9);
    d = addScene(d, 'audio', 'n2');
    expect(ids(d)).toEqual(['s1', 's2', 'n1', 'n2']);
    expect(scene(d, 'n2').type).toBe('audio');
  });

  it('stops adding at the scene limit', () => {
    let d = draftOf('text');
    for (let i = 1; i < LIMITS.sceneMaxCount; i++) d = addScene(d, 'text', `x${i}`);
    expect(d.scenes).toHaveLength(LIMITS.sceneMaxCount);
    expect(canAddScene(d)).toBe(false);
    expect(addScene(d, 'audio', 'over')).toBe(d);
  });

  it('removes a scene but keeps the last one', () => {
    let d = draftOf('text', 'audio', 'text');
    d = removeScene(d, 's2');
    expect(ids(d)).toEqual(['s1', 's3']);
    d = removeScene(d, 's1');
    expect(ids(d)).toEqual(['s3']);
    expect(removeScene(d, 's3')).toBe(d);
    expect(removeScene(d, 'nope')).toBe(d);
  });

  it('reorders up and down, clamped at the ends', () => {
    let d = draftOf('text', 'audio', 'text');
    d = moveScene(d, 's3', -1);
    expect(ids(d)).toEqual(['s1', 's3', 's2']);
    d = moveScene(d, 's1', 1);
    expect(ids(d)).toEqual(['s3', 's1', 's2']);
    expect(moveScene(d, 's3', -1)).toBe(d);
    expect(moveScene(d, 's2', 1)).toBe(d);
    expect(ids(moveScene(d, 's3', 5))).toEqual(['s1', 's2', 's3']);
  });

  it('switches a scene between text and audio, keeping what each side had', () => {
    let d = readyDraft();
    d = setSceneType(d, 's1', 'audio');
    expect(scene(d, 's1')).toMatchObject({ type: 'audio', text: `大家好${pauseMarker(0.5)}欢迎来到直播间` });
    d = setSceneType(d, 's1', 'text');
    expect(scene(d, 's1').voice?.id).toBe(7);
    expect(setSceneType(d, 's1', 'text')).toBe(d);
  });

  it('applies a voice and its own settings to every scene, clearing every audition', () => {
    let d = readyDraft();
    d = addScene(d, 'text', 's3');
    d = setSceneAudition(d, 's1', { key: auditionKey(scene(d, 's1')), url: '/a.mp3', file_id: 1 });
    expect(cachedAudition(scene(d, 's1'))).not.toBeNull();
    d = applyVoiceToAll(d, voice(12, { rate: 0.8, volume: 2, pitch: 1.3 }));
    for (const s of d.scenes) {
      expect(s.voice).toEqual({ id: 12, name: '声音12', api: 'local', version_name: '1.0', channel_name: '离线声音' });
      expect([s.rate, s.volume, s.pitch]).toEqual([0.8, 2, 1.3]);
      expect(s.audition).toBeNull();
    }
  });

  it('clamps and rounds slider values; reset returns to 1', () => {
    let d = draftOf('text');
    d = setSceneSlider(d, 's1', 'rate', 5);
    d = setSceneSlider(d, 's1', 'volume', 0.04);
    d = setSceneSlider(d, 's1', 'pitch', 1.26);
    expect(scene(d, 's1')).toMatchObject({ rate: 2, volume: 0.1, pitch: 1.3 });
    d = resetSceneSliders(d, 's1');
    expect(scene(d, 's1')).toMatchObject({ rate: 1, volume: 1, pitch: 1 });
    expect(resetSceneSliders(d, 's1')).toBe(d);
  });

  it('keeps what a scene needs of an avatar: the cover, orientation and duration', () => {
    expect(sceneAvatarOf(avatar(3, { cover: '' }))).toEqual({ id: 3, name: '数字人3', cover: '/storage/a3s.jpg', orientation: 2, duration: 6 });
    expect(sceneAvatarOf(avatar(4, { orientation: 1, duration: 0 }))).toMatchObject({ orientation: 1, duration: undefined });
  });
});

describe('auditions, per scene', () => {
  const withAudition = () => {
    const d = readyDraft();
    return setSceneAudition(d, 's1', { key: auditionKey(scene(d, 's1')), url: '/storage/a.mp3', file_id: 91 });
  };

  it('are kept and reused while the scene is unchanged', () => {
    const d = withAudition();
    expect(cachedAudition(scene(d, 's1'))).toEqual({ key: auditionKey(scene(d, 's1')), url: '/storage/a.mp3', file_id: 91 });
    // Moving the scene or changing another one keeps it.
    const moved = setSceneText(moveScene(d, 's1', 1), 's2', '别的');
    expect(cachedAudition(scene(moved, 's1'))?.file_id).toBe(91);
  });

  it("are cleared by editing the scene's text, changing its voice or moving its sliders — that scene's only", () => {
    let d = addScene(withAudition(), 'text', 's3');
    d = setSceneText(d, 's3', '第三段');
    d = setSceneAudition(d, 's3', { key: auditionKey(scene(d, 's3')), url: '/storage/c.mp3', file_id: 93 });
    expect(scene(setSceneText(d, 's1', '改了'), 's1').audition).toBeNull();
    expect(scene(setSceneText(d, 's1', '改了'), 's3').audition?.file_id).toBe(93);
    expect(scene(setSceneVoice(d, 's1', voice(8)), 's1').audition).toBeNull();
    expect(scene(setSceneVoice(d, 's1', voice(8)), 's3').audition?.file_id).toBe(93);
    expect(scene(setSceneSlider(d, 's1', 'rate', 1.5), 's1').audition).toBeNull();
    // Setting the same text again changes nothing.
    expect(setSceneText(d, 's1', scene(d, 's1').text)).toBe(d);
  });

  it('that finish after the scene changed are dropped', () => {
    let d = readyDraft();
    const key = auditionKey(scene(d, 's1'));
    d = setSceneText(d, 's1', '新的台词');
    expect(setSceneAudition(d, 's1', { key, url: '/old.mp3', file_id: 1 })).toBe(d);
  });

  it('need text and a voice, and send the sliders', () => {
    const d = readyDraft();
    const asked = auditionRequest(scene(d, 's1'));
    expect(asked).toEqual({ ok: true, key: auditionKey(scene(d, 's1')), request: { voice_id: 7, text: `大家好${pauseMarker(0.5)}欢迎来到直播间`, rate: 1.2, volume: 1, pitch: 1 } });
    expect(auditionRequest(scene(setSceneText(d, 's1', pauseMarker(1)), 's1'))).toEqual({ ok: false, message: MSG.auditionNeedsTextAndVoice });
    expect(auditionRequest(newScene('text', null, 'z'))).toEqual({ ok: false, message: MSG.auditionNeedsTextAndVoice });
    const nw = setSceneText(setSceneVoice(d, 's1', voice(5, { api: 'nw' })), 's1', '字'.repeat(501));
    expect(auditionRequest(scene(nw, 's1'))).toEqual({ ok: false, message: MSG.scriptTooLong(500) });
  });
});

describe('checks before submitting, in the server order', () => {
  it('pass a complete draft', () => {
    expect(draftProblem(readyDraft())).toBeNull();
  });

  it('ask for every scene content first (text, length, voice; upload), then the avatars of a video', () => {
    let d = readyDraft();
    d = setSceneAvatar(d, 's1', sceneAvatarOf(avatar(3)));
    d = { ...d, scenes: d.scenes.map((s) => ({ ...s, avatar: null })) };
    d = setSceneText(d, 's1', `  ${pauseMarker(1)} `);
    d = setSceneAudio(d, 's2', null);
    // Scene 1's text comes before scene 2's audio and before any avatar.
    expect(draftProblem(d)).toEqual({ message: MSG.sceneTextRequired, sceneId: 's1' });
    d = setSceneText(d, 's1', '有内容了');
    expect(draftProblem(d)).toEqual({ message: MSG.sceneAudioRequired, sceneId: 's2' });
    d = setSceneAudio(d, 's2', { file_id: 1, url: '/u.mp3', name: 'u.mp3' });
    expect(draftProblem(d)).toEqual({ message: MSG.avatarRequired, sceneId: 's1' });
    // An audio-only work needs no avatar.
    expect(draftProblem({ ...d, outputMode: 'audio' })).toBeNull();
  });

  it('want a voice on a text scene, after its text', () => {
    let d = draftOf('text');
    d = setSceneAvatar(d, 's1', sceneAvatarOf(avatar(1)));
    d = setSceneText(d, 's1', '你好');
    expect(draftProblem(d)).toEqual({ message: MSG.voiceRequired, sceneId: 's1' });
  });

  it("refuse a text over the scene's limit (10000 on fy, 500 with an nw voice)", () => {
    let d = readyDraft();
    d = setSceneText(d, 's1', '字'.repeat(LIMITS.scriptMaxChars + 1));
    expect(draftProblem(d)).toEqual({ message: MSG.scriptTooLong(LIMITS.scriptMaxChars), sceneId: 's1' });
    d = setSceneText(setSceneVoice(d, 's1', voice(2, { api: 'nw' })), 's1', '字'.repeat(501));
    expect(sceneLimit(scene(d, 's1'))).toBe(500);
    expect(draftProblem(d)?.message).toBe(MSG.scriptTooLong(500));
    // Pause markers and emotion marks do not count.
    d = setSceneText(d, 's1', `${'字'.repeat(500)}${pauseMarker(2)}(laughs)`);
    expect(draftProblem(d)).toBeNull();
  });

  it('want at least one scene', () => {
    expect(draftProblem({ ...emptyDraft(), scenes: [] })).toEqual({ message: MSG.sceneListEmpty, sceneId: null });
  });

  it('treat markers alone as no text', () => {
    expect(hasSpeech(`${pauseMarker(0.5)} (laughs) `)).toBe(false);
    expect(hasSpeech('嗯')).toBe(true);
  });
});

describe('estimate and price', () => {
  it('is characters / (4.2 × the scene speed) + pause seconds for text, plus each upload length; the channel\'s credits per second rounded up', () => {
    const d = readyDraft();
    const text = scene(d, 's1').text;
    // 10 characters + 0.5 s of pause, spoken at the voice's speed 1.2 (the server estimates the same way).
    expect(scene(d, 's1').rate).toBe(1.2);
    expect(estimateSeconds(text)).toBeCloseTo(10 / 4.2 + 0.5, 10);
    const e = estimateDraft(d, 2);
    expect(e.seconds).toBeCloseTo(10 / (4.2 * 1.2) + 0.5 + 6.2, 10);
    expect(e.credits).toBe(Math.ceil(e.seconds * 2));
    expect(e.credits).toBe(18);
    // Until the channel's rate is known nothing is priced.
    expect(estimateDraft(d, undefined).credits).toBe(0);
    expect(e.unknownAudio).toBe(false);
    expect(formatSeconds(e.seconds)).toBe('8.7');
  });

  it('leaves out empty texts and unread audio lengths, and says so', () => {
    let d = draftOf('text', 'audio');
    expect(estimateDraft(d, 2)).toEqual({ seconds: 0, credits: 0, unknownAudio: false });
    d = setSceneAudio(d, 's2', { file_id: 1, url: '/u.mp3', name: 'u.mp3' });
    expect(estimateDraft(d, 2)).toEqual({ seconds: 0, credits: 0, unknownAudio: true });
  });

  it('rounds up without counting float noise as a second', () => {
    expect(priceOf(1, 15)).toBe(15);
    expect(priceOf(0.1 + 0.2, 15)).toBe(5);
    expect(priceOf(2.01, 15)).toBe(31);
    expect(priceOf(0.2, 2)).toBe(1);
    expect(priceOf(0, 2)).toBe(0);
    expect(formatSeconds(0)).toBe('0');
    expect(formatClock(83.4)).toBe('01:23');
    expect(formatClock(undefined)).toBe('');
  });
});

describe('the submitted request', () => {
  it('has the name (when blank, the first text scene\'s first words), api fy, the modes, and the scenes as JSON text', () => {
    let d = readyDraft();
    d = { ...d, name: '  ', driveMode: 'random', outputMode: 'video' };
    const request = buildSubmission(d);
    expect(request).toMatchObject({ name: '大家好欢迎来到直播间', api: MULTI_SCENE_API, drive_mode: 'random', output_mode: 'video' });
    expect(JSON.parse(request.content as string)).toEqual([
      { type: 'text', text: `大家好${pauseMarker(0.5)}欢迎来到直播间`, voice_id: 7, rate: 1.2, volume: 1, pitch: 1, video_id: 3, video_duration: 6 },
      { type: 'audio', file_id: 55, video_id: 4, video_duration: 12.5 },
    ]);
    // The contract accepts it as it is.
    expect(API.works.multi.request.safeParse(request).success).toBe(true);
  });

  it('sends burned-in captions with a video, never with an audio-only work', () => {
    const d: MultiDraft = { ...readyDraft(), subtitles: { on: true, size: 'S', position: 'bottom', color: 'yellow' } };
    const video = buildSubmission(d);
    expect(video).toMatchObject({ subtitles: 1, subtitle_size: 'S', subtitle_position: 'bottom', subtitle_color: 'yellow' });
    expect(API.works.multi.request.safeParse(video).success).toBe(true);
    expect(buildSubmission({ ...d, outputMode: 'audio' })).not.toHaveProperty('subtitles');
  });

  it("sends a text scene's audition file while it still matches, and not once the scene changed", () => {
    let d = readyDraft();
    d = setSceneAudition(d, 's1', { key: auditionKey(scene(d, 's1')), url: '/storage/a.mp3', file_id: 91 });
    expect(sceneItem(scene(d, 's1'))).toMatchObject({ type: 'text', file_id: 91 });
    d = setSceneSlider(d, 's1', 'volume', 2);
    expect(sceneItem(scene(d, 's1'))).not.toHaveProperty('file_id');
  });

  it('keeps avatars off scenes that have none (audio-only works)', () => {
    let d = readyDraft();
    d = { ...d, outputMode: 'audio', scenes: d.scenes.map((s: Scene) => ({ ...s, avatar: null })) };
    const items = JSON.parse(buildSubmission(d).content as string) as Record<string, unknown>[];
    expect(items.every((i) => !('video_id' in i) && !('video_duration' in i))).toBe(true);
    expect(API.works.multi.request.safeParse(buildSubmission(d)).success).toBe(true);
    expect(API.works.multi.request.safeParse(buildSubmission({ ...d, outputMode: 'video' })).success).toBe(false);
  });

  it('lands on the multi-scene video or audio list of the works page', () => {
    expect(worksQuery('video')).toEqual({ type1: 1, type2: 1 });
    expect(worksQuery('audio')).toEqual({ type1: 1, type2: 2 });
  });
});

describe('audio uploads', () => {
  it('take MP3, M4A and WAV up to 20 MB', () => {
    expect(checkSceneAudio({ name: 'a.MP3', size: 10 })).toBeNull();
    expect(checkSceneAudio({ name: 'a.wav', size: LIMITS.audio.maxBytes })).toBeNull();
    expect(checkSceneAudio({ name: 'a.ogg', size: 10 })).toBe(MSG.audioInvalid);
    expect(checkSceneAudio({ name: 'a.mp3', size: 0 })).toBe(MSG.audioInvalid);
    expect(checkSceneAudio({ name: 'a.m4a', size: LIMITS.audio.maxBytes + 1 })).toBe(MSG.audioTooLarge(20));
  });
});
