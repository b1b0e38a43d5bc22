/** Voices: lists, clone, rename, confirm, settings, channels, languages and audition (part 1 §3–§7, part 2 §3–§7). */
import { z } from 'zod';
import { defineGroup, userCall, specCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { requiredText, text } from '../schema';
import { ChannelBase, Flag, bySourceRequest, channelApi, emotion, nameField, optionalId, removeById, renameById, requiredId, scriptText, optionalSliders, voiceSliders, userList } from './fields';

export const VOICE_SOURCES = [1, 2] as const;
/** Voice.type value whose name cannot be changed. */
export const VOICE_TYPE_NAME_LOCKED = 11;
/** Voice.generate_status values (part 1 §4): 1 training, 2 ready, 3 failed; a voice is usable unless training or failed. */
export const VoiceStatus = { Training: 1, Ready: 2, Failed: 3 } as const;
/** AuditionJob.status values: poll until Done (url and file_id set) or Failed. */
export const AuditionStatus = { Queued: 1, Running: 2, Done: 3, Failed: 4 } as const;

/**
 * What users read when a self-hosted cloning TTS server (fish-speech, GPT-SoVITS) fails them: training reasons on
 * the voice, synthesis reasons on the audition or the work.
 */
export const CLONING_SERVER_MSG = {
  notConfigured: '该渠道尚未配置克隆语音服务地址或共享目录，请联系管理员',
  shareDirFailed: '无法写入克隆语音服务的共享目录，请联系管理员检查渠道配置',
  unreachable: '克隆语音服务无法连接，请稍后重试',
  timeout: '克隆语音服务响应超时，请稍后重试',
  unavailable: '克隆语音服务暂时不可用，请稍后重试',
  badReply: '克隆语音服务返回了无法识别的应答，请稍后重试',
  badAudio: '克隆语音服务返回的音频无效，请稍后重试',
  trainingFailed: '声音样本处理失败，请更换清晰、无背景噪音的人声样本后重试',
  referenceTooShort: '样本中清晰的人声不足3秒，请重新录制',
  referenceMissing: '声音的参考音频已不在语音服务上，请重新克隆声音',
  refused: '克隆语音服务拒绝了合成请求，请检查文案后重试',
  emptyScript: '文案不能为空',
} as const;

/** The upload tips a channel gets when an operator points it at a cloning TTS server (unless given their own). */
export const CLONING_SERVER_UPLOAD_TIPS = {
  fishspeech: '请上传10-60秒清晰、无背景音乐的单人说话录音；只会使用开头约60秒作为参考音色。',
  gptsovits: '请上传10秒以上清晰、无背景音乐的单人说话录音；系统会截取开头3-10秒的人声作为参考音色。',
} as const;

export const Voice = z.object({
  id: z.number(),
  name: z.string(),
  /** Sample audio for preview. */
  url: z.string(),
  api: z.string(),
  /** 11 = name locked. */
  type: z.number(),
  remained_times: z.number(),
  version_name: z.string(),
  voice_channel_name: z.string(),
  generate_status: z.number(),
  rate: z.number(),
  volume: z.number(),
  pitch: z.number(),
  /** 1 own, 2 public. */
  source: z.number(),
  file_id: z.number(),
  /** ours: 1 once confirmed (a generated voice is confirmed once, then fixed). */
  confirmed: Flag.optional(),
  /** ours: why training failed (generate_status 3), in Chinese. */
  reason: z.string().optional(),
});
export type Voice = z.infer<typeof Voice>;

/** A voice cloning channel: its credits are per voice clone (0 = free). */
export const VoiceChannel = ChannelBase.extend({
  free_times: z.number(),
  train_times: z.number(),
  /** The channel's own upload tip (default suggests 3 to 5 minutes). */
  upload_tips: z.string(),
  /** Hint line of supported languages. */
  language: z.string(),
});
export type VoiceChannel = z.infer<typeof VoiceChannel>;

/** One option of the language cascader (two levels: language, then dialect/accent). */
export const LanguageOption = z.object({
  value: z.string(),
  label: z.string(),
  children: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
});
export type LanguageOption = z.infer<typeof LanguageOption>;

export const AuditionJob = z.object({
  job_id: z.string(),
  /** 3 success (url and file_id set), 4 failed, other in progress (poll every 3 s). */
  status: z.number(),
  /** '' until status 3. */
  url: z.string(),
  /** 0 until status 3. */
  file_id: z.number(),
});
export type AuditionJob = z.infer<typeof AuditionJob>;

export const voicesCalls = defineGroup('voices', {
  list: specCall('GET', '/api/user/voice', {
    summary: `Voice list: own (source 1) or public (source 2), by name; generate = how many are still training (poll every ${LIMITS.voicePollMs} ms while > 0).`,
    request: bySourceRequest(VOICE_SOURCES, 1),
    response: z.object({ list: z.array(Voice), generate: z.number(), total: z.number().optional() }),
  }),
  create: specCall('POST', '/api/voice/create', {
    summary:
      'Clone a voice from a registered audio on a channel, or re-train one (id given; only while remained_times > 0 and not training; ' +
      'channel xf refuses with MSG.voiceXfEditRefused). Spends the channel\'s credits unless free_times remain.',
    request: z.object({
      id: optionalId('声音ID'),
      name: nameField(MSG.voiceNameRequired),
      file_id: requiredId(MSG.voiceAudioRequired),
      api: channelApi(),
      voice_channel_name: text('通道名称', LIMITS.nameMaxChars).default(''),
    }),
    response: z.object({ id: z.number() }),
  }),
  rename: renameById({ path: '/api/user/voiceEdit', pathFromSpec: false, summary: `Rename an own voice (refused when type = ${VOICE_TYPE_NAME_LOCKED}); answers MSG.renameSucceeded (spec name: voiceEdit).` }, '声音ID'),
  remove: removeById({ path: '/api/user/voice', pathFromSpec: false, summary: 'Delete an own voice (only when remained_times = 0).' }, '声音ID'),
  confirm: userCall('POST', '/api/user/voiceConfirm', {
    summary: 'Confirm a generated voice once; it is fixed afterwards (spec name: voiceConfirm).',
    request: z.object({ voice_id: requiredId(MSG.voiceRequired) }),
    response: z.object({}),
  }),
  settings: userCall('POST', '/api/user/voiceSetting', {
    summary: `Save a voice's speed/volume/pitch (ranges from LIMITS.sliders, default ${LIMITS.sliders.rate.default}); the reply msg may carry a message.`,
    request: z.object({ voice_id: requiredId(MSG.voiceRequired), ...voiceSliders }),
    response: z.object({}),
  }),
  language: userCall('GET', '/api/langList', {
    summary: 'Language cascader options of a channel (empty when the channel has no language choice) (spec: voice language by api; spec name: langList).',
    request: z.object({ api: channelApi() }),
    response: z.object({ language: z.array(LanguageOption) }),
  }),
  channels: userList({ path: '/api/user/voiceChannel', pathFromSpec: false, summary: 'Voice clone channels with credits, free_times and train_times for this user (spec name: voiceChannel).' }, VoiceChannel),
  audition: userCall('POST', '/api/user/audition', {
    summary:
      'Start synthesizing text with a voice (pause markers honoured) → job_id; rate/volume/pitch only for public voices (spec name: audition).',
    request: z.object({
      voice_id: requiredId(MSG.auditionNeedsTextAndVoice),
      text: scriptText('试听文本', MSG.auditionNeedsTextAndVoice),
      ...optionalSliders,
      language: text('语言', 50).optional(),
      emotion: emotion().optional(),
    }),
    response: z.object({ job_id: z.string() }),
  }),
  auditionPoll: userCall('GET', '/api/user/audition', {
    summary: `Audition job state; poll every ${LIMITS.auditionPollMs} ms until 3 (play url) or 4 (MSG.auditionFailed).`,
    request: z.object({ job_id: requiredText('任务ID', MSG.auditionFailed, 64) }),
    response: AuditionJob,
  }),
});
