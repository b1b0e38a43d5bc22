/** Works: single and multi-scene submission, the works list (part 1 §2 works, part 2 §2.2, §2.3, §3, §7). */
import { z } from 'zod';
import { defineGroup, userCall, specCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { countChars, scriptLimit, workCredits } from '../script';
import { int, num, oneOf, plainString, text } from '../schema';
import { bgmVolume, musicTrackRef } from './music';
import { ChannelBase, SCRIPT_RAW_MAX, Timestamp, blankToUndefined, channelApi, emotion, flag, intOneOf, optionalFilter, optionalId, optionalSliders, pageFields, removeById, renameById, subtitleLook, workName, jsonText, userRead } from './fields';

/** Work.status (part 1 §4): 3 success, 4 failed, other in progress (1 queued, 2 rendering). */
export const WorkStatus = { Queued: 1, Rendering: 2, Success: 3, Failed: 4 } as const;
/** The statuses that count as still in progress (the list's `generate`, what polling waits for). */
export const WORK_IN_PROGRESS = [WorkStatus.Queued, WorkStatus.Rendering] as const;

/**
 * The works page's tabs (part 2 §2.1): type1 picks the level (0 video works, 1 multi-scene works), type2 the tab
 * inside it. The works list reads `type` as the type2 of the level `is_multi` names (0 when absent): what each
 * tab holds, as works-table columns. type2 3 (translated videos) has its own list, so no work matches it here.
 */
export const WORK_TABS: Record<0 | 1, Record<number, { photo_type?: number; only_audio?: number; oneclick?: number }>> = {
  // type2 5 is ours: one-click creation (一键成片), which the avatar-video tab leaves out.
  0: { 1: { photo_type: 0, oneclick: 0 }, 2: { photo_type: 2 }, 4: { photo_type: 1 }, 5: { oneclick: 1 } },
  1: { 1: { only_audio: 0 }, 2: { only_audio: 1 } },
};

export const Work = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  cover: z.string(),
  status: z.number(),
  /** Channel display name. */
  api_name: z.string(),
  /** Channel api code (drives the waiting message: ou, gj, df, fy, other). */
  api_key: z.string(),
  create_time: Timestamp,
  /** ours: seconds, once done. */
  duration: z.number().optional(),
  /** ours: why it failed (status 4). */
  reason: z.string().optional(),
  /** ours: waiting in our queue (this machine's fair queue, or a remote lip-sync engine's line): how many works go before it (0: it starts next). */
  queue_ahead: z.number().optional(),
  /** ours: on a remote lip-sync engine or rendering on this machine: its progress, 0–100. */
  progress: z.number().optional(),
  /** ours: rendering on this machine: about how many seconds are left, at the pace so far. */
  seconds_left: z.number().optional(),
  /** ours: the work's subtitles (SRT), once done, when its speech has timed text (as translated videos have). */
  srt: z.string().optional(),
  /** ours: credits charged, once done (reserved while in progress; 0 once refunded). */
  credits: z.number().optional(),
});
export type Work = z.infer<typeof Work>;

/** ours: burned-in captions at submit (src/contract/subtitles.ts): 0 none, 1 burned in, and how they look. */
const subtitleFields = {
  subtitles: flag('字幕').default(0),
  ...subtitleLook,
};

/**
 * ours: background music at submit: a track a music picker offers (API.music.library: `lib-<n>` or `my-<n>`), its level
 * (0.05–1 of its own loudness), ducked under the speech, faded in and out, looped or cut to the work's length.
 */
export const bgmFields = {
  bgm: optionalFilter(musicTrackRef()),
  bgm_volume: bgmVolume(),
};

const optionalScript = (label: string) =>
  z.preprocess(blankToUndefined, plainString(label).trim().max(SCRIPT_RAW_MAX, MSG.scriptTooLong(LIMITS.scriptMaxChars)).optional());

/** Work submission (part 2 §3). The avatar is exactly one of material_video_id, video_id, photo_id. */
export const WorkSubmission = z
  .object({
    name: workName(),
    /** ours: 'text' or 'audio'; inferred when absent (audio when an audio is given and neither text nor user_voice_id). */
    drive: oneOf('驱动方式', ['text', 'audio']).optional(),
    text: optionalScript('台词'),
    /** Only with system (public) voices. */
    ...optionalSliders,
    /** The voice (timbre) of text mode. */
    user_voice_id: optionalId('声音'),
    api: channelApi(),
    material_video_id: optionalId('素材视频'),
    video_id: optionalId('数字分身'),
    photo_id: optionalId('图片'),
    /** The audio file: the uploaded audio (audio mode) or the synthesized audition (text mode). */
    voice_id: optionalId('音频'),
    material_audio_id: optionalId('素材音频'),
    language: text('语言', 50).optional(),
    emotion: emotion().optional(),
    ...subtitleFields,
    ...bgmFields,
  })
  .superRefine((v, ctx) => {
    const avatars = [v.material_video_id, v.video_id, v.photo_id].filter((x) => x !== undefined).length;
    if (avatars === 0) ctx.addIssue({ code: 'custom', message: MSG.avatarRequired, path: ['video_id'] });
    if (avatars > 1) ctx.addIssue({ code: 'custom', message: MSG.avatarConflict, path: ['video_id'] });
    const hasAudio = v.voice_id !== undefined || v.material_audio_id !== undefined;
    const drive = v.drive ?? (hasAudio && !v.text && v.user_voice_id === undefined ? 'audio' : 'text');
    if (drive === 'audio') {
      if (!hasAudio) ctx.addIssue({ code: 'custom', message: MSG.audioFileRequired, path: ['voice_id'] });
      return;
    }
    if (!v.text) ctx.addIssue({ code: 'custom', message: MSG.scriptRequired, path: ['text'] });
    else if (countChars(v.text) > scriptLimit(v.api)) {
      ctx.addIssue({ code: 'custom', message: MSG.scriptTooLong(scriptLimit(v.api)), path: ['text'] });
    }
    if (v.user_voice_id === undefined) ctx.addIssue({ code: 'custom', message: MSG.voiceRequired, path: ['user_voice_id'] });
  });

export const MULTI_DRIVE_MODES = ['serial', 'random'] as const;
export const MULTI_OUTPUT_MODES = ['video', 'audio'] as const;
/** Multi-scene works are submitted on channel fy (model V3.0, credits only); see multiSceneChannel for what renders them. */
export const MULTI_SCENE_API = 'fy' as const;

/**
 * ours (issue 33): the channel that lip-syncs a multi-scene work's avatar scenes — fy when it is enabled and its
 * engine moves the mouth (HeyGem, or the offline lip-sync engine), else the enabled channel of the offline lip-sync
 * engine (本地口型); none when neither is there.
 */
export function multiSceneChannel<C extends { api: string; enabled: boolean; engine: string }>(channels: readonly C[]): C | undefined {
  const movesMouth = (c: C) => c.enabled && (c.engine === 'heygem' || c.engine === 'lipsync');
  return channels.find((c) => c.api === MULTI_SCENE_API && movesMouth(c)) ?? channels.find((c) => c.engine === 'lipsync' && c.enabled);
}

/**
 * ours (issue 33): a multi-scene work costs its lip-sync channel's credits per second of the result (the same rate
 * whether it outputs the video or only the audio) as a single work does, at least 1; the estimate before submit,
 * the reservation and the settlement are all this.
 */
export const multiSceneCredits = (seconds: number, creditsPerSecond: number): number => Math.max(1, workCredits(seconds, creditsPerSecond));

/** ours: the multi-scene lip-sync channel as videoChannel answers it (absent: none is enabled). */
export const MultiSceneChannel = z.object({
  api: z.string(),
  name: z.string(),
  /** Credits per second of the result. */
  credits: z.number(),
  /** Rendered on this machine (the offline engine) rather than a remote one. */
  local: z.boolean(),
  /** MSG.multiSceneLipSync for it. */
  tip: z.string(),
});
export type MultiSceneChannel = z.infer<typeof MultiSceneChannel>;

/** One submitted scene (part 2 §3), an item of the JSON text `content`. */
export const SceneItem = z
  .object({
    type: oneOf('场景类型', ['text', 'audio']),
    /** Audio scenes: the uploaded audio. Text scenes: the synthesized preview, when there is one. */
    file_id: optionalId('音频'),
    text: plainString('文本').trim().max(SCRIPT_RAW_MAX, MSG.scriptTooLong(LIMITS.scriptMaxChars)).optional(),
    voice_id: optionalId('声音'),
    ...optionalSliders,
    video_id: optionalId('数字分身'),
    video_duration: num('视频时长', 0, LIMITS.video.maxSeconds).optional(),
  })
  .superRefine((scene, ctx) => {
    if (scene.type === 'audio') {
      if (scene.file_id === undefined) ctx.addIssue({ code: 'custom', message: MSG.sceneAudioRequired, path: ['file_id'] });
      return;
    }
    const max = scriptLimit(MULTI_SCENE_API);
    if (!scene.text) ctx.addIssue({ code: 'custom', message: MSG.sceneTextRequired, path: ['text'] });
    else if (countChars(scene.text) > max) ctx.addIssue({ code: 'custom', message: MSG.scriptTooLong(max), path: ['text'] });
    if (scene.voice_id === undefined) ctx.addIssue({ code: 'custom', message: MSG.voiceRequired, path: ['voice_id'] });
  });
export type SceneItem = z.infer<typeof SceneItem>;

/** `content`: JSON text of the scene list in, parsed scenes out. */
const sceneContent = jsonText(MSG.sceneContentInvalid).pipe(
    z
      .array(SceneItem, { error: MSG.sceneContentInvalid })
      .min(1, MSG.sceneListEmpty)
      .max(LIMITS.sceneMaxCount, `场景不能超过${LIMITS.sceneMaxCount}个`),
  );

/** A video channel: its credits are per second of video. */
export const VideoChannel = ChannelBase.extend({
  /** ours: the channel renders picture works (photo avatars, pet and photo-speak); remote lip-sync servers do not. */
  pictures: z.boolean().optional(),
});
export type VideoChannel = z.infer<typeof VideoChannel>;

/** A channel's version as a number (version_name '1.5' → 1.5; none → 0), the effect order's key. */
const versionOf = (c: Pick<VideoChannel, 'version_name'>) => Number.parseFloat(c.version_name) || 0;

/** The channels best first: the highest version, then the listed order (the sort is stable). */
export const byEffect = <C extends Pick<VideoChannel, 'version_name'>>(channels: readonly C[]): C[] => [...channels].sort((a, b) => versionOf(b) - versionOf(a));

/** The effect-order tip, from the channels there are (issue 33: it named channels that were not there). */
export const effectOrderTip = (channels: readonly Pick<VideoChannel, 'name' | 'version_name'>[]) =>
  MSG.effectOrder(byEffect(channels).map((c) => [c.version_name, c.name].filter(Boolean).join(' ')));

export const worksCalls = defineGroup('works', {
  videoChannel: userRead('/api/videoChannel', {
    summary:
      'Video training channels (credits per second) and the tips line: the effect order of the channels offered, best first; ' +
      'ours: `multi`, the channel that lip-syncs multi-scene works and its price (spec name: videoChannel).',
    response: z.object({ list: z.array(VideoChannel), tips: z.string(), multi: MultiSceneChannel.optional() }),
  }),
  create: specCall('POST', '/api/user/works', {
    summary:
      'Submit a single video work (avatar video, material video or pet/person photo, with text + voice or an audio); reserves the ' +
      'channel\'s credits; the client then shows MSG.submitAlert.',
    request: WorkSubmission,
    response: z.object({ id: z.number() }),
  }),
  multi: userCall('POST', '/api/user/multiWorks', {
    summary: 'Submit a multi-scene work (api fy; lip-synced and priced per second of the result on multiSceneChannel) (spec name: multiWorks).',
    request: z
      .object({
        name: workName(),
        api: z.literal(MULTI_SCENE_API, { error: '模型取值有误' }).default(MULTI_SCENE_API),
        drive_mode: oneOf('驱动模式', MULTI_DRIVE_MODES).default('serial'),
        output_mode: oneOf('输出设置', MULTI_OUTPUT_MODES).default('video'),
        content: sceneContent,
        ...subtitleFields,
        ...bgmFields,
      })
      .superRefine((v, ctx) => {
        if (v.output_mode !== 'video') {
          if (v.subtitles === 1) ctx.addIssue({ code: 'custom', message: MSG.subtitlesAudioOnly, path: ['subtitles'] });
          return;
        }
        v.content.forEach((scene, i) => {
          if (scene.video_id === undefined) ctx.addIssue({ code: 'custom', message: MSG.avatarRequired, path: ['content', i, 'video_id'] });
        });
      }),
    response: z.object({ id: z.number() }),
  }),
  list: specCall('GET', '/api/user/works', {
    summary:
      'Works list, newest first. Filters: status, name, is_multi (multi-scene), only_audio (multi-scene audio), photo_type (0 avatar video, ' +
      '1 photo-speak, 2 pet), oneclick (one-click works), type (the works page\'s type2 inside the level is_multi names, see WORK_TABS: 1 digital-human video, ' +
      '2 pet video, 3 translated (none here), 4 photo-speak, 5 one-click; with is_multi 1: 1 multi-scene video, 2 multi-scene audio). ' +
      'page 0 + limit 0 answers only the counts (total). ' +
      `generate = works still in progress (poll every ${LIMITS.worksPollMs} ms while > 0).`,
    request: z.object({
      ...pageFields,
      status: optionalFilter(int('状态', 0, 99)),
      name: text('名称', LIMITS.nameMaxChars).optional(),
      is_multi: optionalFilter(flag('多场景')),
      only_audio: optionalFilter(flag('仅音频')),
      photo_type: optionalFilter(intOneOf('图片类型', [0, 1, 2])),
      /** ours: 1 only one-click works (/cozeVideo), 0 none of them. */
      oneclick: optionalFilter(flag('一键成片')),
      type: optionalFilter(int('类型', 0, 99)),
      /** ours: one work by its id (the public API's GET /works/{id}). */
      id: optionalFilter(int('作品ID', 1)),
    }),
    response: z.object({ list: z.array(Work), generate: z.number(), total: z.number() }),
  }),
  rename: renameById({ path: '/api/user/worksEdit', pathFromSpec: false, summary: 'Rename a work (successful works only); answers MSG.renameSucceeded.' }, '作品ID'),
  remove: removeById({ path: '/api/user/works', pathFromSpec: false, summary: 'Permanently delete a work (the client confirms first).' }, '作品ID'),
});
