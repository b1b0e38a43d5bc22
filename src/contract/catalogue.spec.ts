import { describe, it, expect } from 'vitest';
import type { z } from 'zod';
import { API, ALL_CALLS, SPEC_NAMES, assertCatalogueUnique } from './calls';
import type { CallDef } from './call';
import { MSG } from './messages';
import { LIMITS } from './limits';

/** Paths the specification states verbatim (part 2 §7). */
const SPEC_PATHS = [
  '/api/user/works',
  '/api/upload/sign',
  '/api/upload/complete',
  '/api/user/photo',
  '/api/user/voice',
  '/api/user/videoAnalyse',
  '/api/user/videoTranslate',
  '/api/user/material',
  '/api/user/imageGenerate',
  '/api/user/imagePrompt',
  '/api/user/videoGenerate',
  '/api/user/videoPrompt',
  '/api/user/videoPromptRecommend',
  '/api/user/userPrompt',
  '/api/chat/sendMessage',
  '/api/chat/index',
  '/api/chat/record',
  '/api/chat/messageList',
  '/api/user/textMaterial',
  '/api/voice/create',
];

/** Calls the specification names without a path. */
const NAMED = [
  'login', 'credits', 'creditsLog', 'audition', 'voiceConfirm', 'changePwd', 'cdkey', 'space', 'spaceExpand', 'voiceEdit', 'site',
  'notice', 'theme', 'guide', 'voiceChannel', 'creditsRule', 'protocol2', 'langList', 'multiWorks', 'textpolish', 'videoChannel',
  'translateLang',
] as const;

/** The first issue's message of a failed parse, or undefined when the input is valid. */
function firstError(call: CallDef, input: unknown): string | undefined {
  const result = (call.request as z.ZodType).safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

function errors(call: CallDef, input: unknown): string[] {
  const result = (call.request as z.ZodType).safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('call catalogue', () => {
  it('has unique ids and unique method + path', () => {
    expect(() => assertCatalogueUnique()).not.toThrow();
  });

  it('names every call after its group', () => {
    for (const [group, calls] of Object.entries(API)) {
      for (const call of Object.values(calls) as CallDef[]) expect(call.id.startsWith(`${group}.`), call.id).toBe(true);
    }
  });

  it.each(SPEC_PATHS)('has %s with pathFromSpec', (path) => {
    const hits = ALL_CALLS.filter((c) => c.path === path);
    expect(hits.length, path).toBeGreaterThan(0);
    expect(hits.some((c) => c.pathFromSpec), path).toBe(true);
  });

  it('maps every spec-named call to an entry', () => {
    const ids = new Set(ALL_CALLS.map((c) => c.id));
    for (const name of NAMED) expect(SPEC_NAMES, name).toHaveProperty(name);
    for (const [name, id] of Object.entries(SPEC_NAMES)) expect(ids.has(id), `${name} → ${id}`).toBe(true);
  });

  it('leaves only uploads (the voice input\'s recording too), the answer streams (chat, 二创 rewrite, bots, the helper) and a bot\'s spoken sentence, health and the operator calls unchecked', () => {
    const unchecked = ALL_CALLS.filter((c) => !c.checked && c.auth !== 'operator').map((c) => c.id).sort();
    expect(unchecked).toEqual(['bot.hear', 'bot.speech', 'bot.stream', 'chat.stream', 'copywrite.rewrite', 'helper.guide', 'helper.operate', 'site.health', 'site.healthLive', 'site.healthReady', 'upload.direct', 'upload.voice'].sort());
    for (const call of ALL_CALLS.filter((c) => c.auth === 'operator')) expect(call.checked, call.id).toBe(false);
  });

  it('uses paths under /api (the storage host excepted) and summaries on every call', () => {
    for (const call of ALL_CALLS) {
      // The direct-upload host is storage, not the API: object URLs are host + '/' + key, as with OSS.
      expect(call.path, call.id).toMatch(call.id === 'upload.direct' ? /^\/storage$/ : /^\/api\/[A-Za-z0-9/]+$/);
      expect(call.summary.length, call.id).toBeGreaterThan(10);
    }
  });
});

describe('validation messages', () => {
  it('work rename needs a name', () => {
    expect(firstError(API.works.rename, { id: 1 })).toBe(MSG.renameNameRequired);
    expect(firstError(API.works.rename, { id: 1, name: '  ' })).toBe(MSG.renameNameRequired);
    expect(firstError(API.works.rename, { id: 1, name: '新名字' })).toBeUndefined();
  });

  it('image generation needs a description', () => {
    expect(firstError(API.imagegen.create, { text: '' })).toBe('请输入描述词！');
    expect(firstError(API.imagegen.create, {})).toBe(MSG.promptRequired);
    const parsed = API.imagegen.create.request.parse({ text: '一只猫' });
    expect(parsed).toMatchObject({ type: 'text', ratio: LIMITS.imageRatios[0], num: 1 });
    expect(firstError(API.imagegen.create, { text: '一只猫', num: 5 })).toBe('数量不能大于4');
    expect(firstError(API.imagegen.create, { text: '一只猫', ratio: '4:3' })).toBe('比例取值有误');
  });

  it('AI writing keyword is required and at most 500 characters', () => {
    expect(firstError(API.writing.aiWriting, { keyword: '', length: 150 })).toBe(MSG.topicRequired);
    expect(firstError(API.writing.aiWriting, { keyword: 'a'.repeat(LIMITS.topicMaxChars), length: 150 })).toBeUndefined();
    expect(firstError(API.writing.aiWriting, { keyword: 'a'.repeat(LIMITS.topicMaxChars + 1), length: 150 })).toBeDefined();
    expect(firstError(API.writing.aiWriting, { keyword: '主题', length: 200 })).toBe('字数取值有误');
    expect(API.writing.aiWriting.request.parse({ keyword: '主题', length: '300' })).toEqual({ keyword: '主题', length: 300 });
  });

  it('video generation checks the image-to-video images; the prompt is the server\'s to check, by engine', () => {
    // Kling requires the prompt, the camera move made here does not (issue 33): the server refuses by engine.
    expect(API.videogen.create.request.parse({ type: 'image', image: 'https://x/a.png' })).toMatchObject({ prompt: '' });
    expect(API.videogen.create.request.parse({ type: 'image', image: 'https://x/a.png' }).aspect_ratio).toBeUndefined();
    expect(firstError(API.videogen.create, { type: 'image', prompt: '跑步' })).toBe(MSG.firstFrameRequired);
    expect(firstError(API.videogen.create, { type: 'image', prompt: '跑步', image_mode: 2 })).toBe(MSG.referenceImageRequired);
    expect(firstError(API.videogen.create, { prompt: '跑步', duration: 7 })).toBe('时长取值有误');
    expect(firstError(API.videogen.create, { prompt: '跑步', cfg_scale: 1.5 })).toBe('想象力不能大于1');
    expect(API.videogen.create.request.parse({ prompt: '跑步' })).toMatchObject({
      type: 'text', mode: LIMITS.videoModeDefault, duration: 5, cfg_scale: LIMITS.imagination.default,
    });
  });

  it('work submission follows the creation order of messages', () => {
    expect(errors(API.works.create, { api: 'local' })).toEqual([MSG.avatarRequired, MSG.scriptRequired, MSG.voiceRequired]);
    expect(errors(API.works.create, { api: 'local', video_id: 3, drive: 'audio' })).toEqual([MSG.audioFileRequired]);
    expect(firstError(API.works.create, { api: 'nw', video_id: 3, user_voice_id: 2, text: '字'.repeat(501) })).toBe(MSG.scriptTooLong(500));
    // pause markers do not count
    const text = `${'字'.repeat(500)}<#0.5#>`;
    expect(firstError(API.works.create, { api: 'nw', video_id: 3, user_voice_id: 2, text })).toBeUndefined();
    const audio = API.works.create.request.parse({ api: 'local', photo_id: '4', voice_id: '9', name: '' });
    expect(audio).toMatchObject({ name: LIMITS.defaultWorkName, photo_id: 4, voice_id: 9 });
  });

  it('multi-scene content is JSON text of valid scenes', () => {
    const base = { name: '多场景', drive_mode: 'serial', output_mode: 'video' };
    expect(firstError(API.works.multi, { ...base, content: 'not json' })).toBe(MSG.sceneContentInvalid);
    expect(firstError(API.works.multi, { ...base, content: '[]' })).toBe(MSG.sceneListEmpty);
    expect(firstError(API.works.multi, { ...base, content: JSON.stringify([{ type: 'text', voice_id: 1, video_id: 1 }]) })).toBe(MSG.sceneTextRequired);
    expect(firstError(API.works.multi, { ...base, content: JSON.stringify([{ type: 'audio', video_id: 1 }]) })).toBe(MSG.sceneAudioRequired);
    const ok = API.works.multi.request.parse({ ...base, content: JSON.stringify([{ type: 'text', text: '你好', voice_id: 1, video_id: 2, rate: 1 }]) });
    expect(ok.api).toBe('fy');
    expect(ok.content[0]).toMatchObject({ type: 'text', text: '你好', voice_id: 1, video_id: 2 });
  });

  it('translation needs video, source and target language', () => {
    expect(errors(API.translation.submit, {})).toEqual([MSG.translationVideoRequired, MSG.translationSourceRequired, MSG.translationTargetRequired]);
    expect(firstError(API.translation.submit, { file_id: 1, source_lang: 'zh', target_lang: 'zh' })).toBe(MSG.translationSameLanguage);
    expect(API.translation.submit.request.parse({ file_id: 1, source_lang: 'zh', target_lang: 'en' }).mode).toBe(1);
  });

  it('pet and person images use their own messages', () => {
    expect(errors(API.photo.create, { type: 2 })).toEqual([MSG.petNameRequired, MSG.petImageRequired]);
    expect(errors(API.photo.create, { type: 1, name: '' })).toEqual([MSG.personNameRequired, MSG.personImageRequired]);
  });

  it('voice calls use the spec messages and slider ranges', () => {
    expect(errors(API.voices.create, { api: 'fish' })).toEqual([MSG.voiceNameRequired, MSG.voiceAudioRequired]);
    expect(firstError(API.voices.rename, { id: 1, name: '' })).toBe(MSG.renameNameRequired);
    expect(firstError(API.voices.settings, { voice_id: 1, rate: LIMITS.sliders.rate.max + 0.1, volume: 1, pitch: 1 })).toBe('语速不能大于2');
    expect(firstError(API.voices.audition, { text: '' })).toBe(MSG.auditionNeedsTextAndVoice);
  });

  it('registration by code checks phone and password', () => {
    expect(firstError(API.credits.cdkey, {})).toBe(MSG.registerCodeRequired);
    expect(API.credits.cdkey.request.parse({ code: 'ABC' })).toEqual({ code: 'ABC', client: 'pc' });
    expect(firstError(API.credits.cdkey, { code: 'ABC', username: '123' })).toBe(MSG.registerPhoneInvalid);
    expect(firstError(API.credits.cdkey, { code: 'ABC', username: '13800138000' })).toBe(MSG.loginPasswordRequired);
    expect(firstError(API.credits.cdkey, { code: 'ABC', username: '13800138000', password: 'abc123' })).toBeUndefined();
    expect(firstError(API.credits.log, { start: '2025-02-01', end: '2025-01-01' })).toBe(MSG.dateRangeInvalid);
  });

  it('upload registration limits size per file type', () => {
    expect(firstError(API.upload.complete, { file_type: 'image', size: LIMITS.image.maxBytes + 1, url: 'u/a.png' })).toBe(MSG.imageTooLarge);
    expect(firstError(API.upload.complete, { file_type: 'video', size: 1000, url: '' })).toBe(MSG.uploadFailed);
    expect(firstError(API.upload.sign, { file_type: 'pdf' })).toBe('文件类型取值有误');
  });

  it('chat and extraction messages', () => {
    expect(firstError(API.chat.sendMessage, { content: '' })).toBe(MSG.chatContentRequired);
    expect(API.chat.sendMessage.request.parse({ cid: '', content: '你好' })).toEqual({ content: '你好', model: 'v3' });
    expect(firstError(API.extraction.videoParse, { link: ' ' })).toBe(MSG.extractionLinkRequired);
    expect(firstError(API.extraction.audioExtract, { type: 2 })).toBe(MSG.translationVideoRequired);
    expect(API.extraction.videoList.request.parse({ status: '', page: 1, limit: 10 })).toEqual({ page: 1, limit: 10 });
  });
});
