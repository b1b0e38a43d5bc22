/**
 * One-click creation (part 2 §2.1 routes /cozeVideo, /cozeVideo/editVideo, /cozeVideo/history; contents not shown;
 * issue 29). create and history are the interfaces other checks use, as the issue spells them; the project (draft)
 * and storyboard calls are ours. A project holds the user's storyboard as it is edited; each render is a work
 * (it appears on /works) and the project remembers its latest one.
 */
import { z } from 'zod';
import { defineGroup, userCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { countChars } from '../script';
import { ONECLICK_ASPECTS, SCENE_KINDS, SCENE_MOTIONS, SCRIPT_PLATFORMS, TOPIC_SECONDS, TOPIC_STYLES, storyScript } from '../storyboard';
import { int, num, oneOf, plainString, requiredText, text } from '../schema';
import { bgmVolume, musicTrackRef } from './music';
import { SCRIPT_RAW_MAX, Timestamp, channelApi, countedPage, requiredId, flag, intOneOf, optionalFilter, optionalId, removeById, subtitleLook, urlField, workName, jsonText, userCallById, userPageRead, userRead } from './fields';

const O = LIMITS.oneclick;

/** A project's state on /cozeVideo/history: a draft never rendered, else its latest work's WorkStatus. */
export const OneclickDraft = 0;

/** One scene as submitted (the items of `scenes`); checked per scene with its number in the message. */
const SceneInput = z.object({
  text: plainString('分镜文案', MSG.oneclickScenesInvalid).max(SCRIPT_RAW_MAX, MSG.oneclickTooLong(O.maxChars)),
  kind: oneOf('分镜类型', SCENE_KINDS),
  image_url: z.preprocess((v) => (v === '' || v === null ? undefined : v), urlField('图片').optional()),
  motion: oneOf('镜头运动', SCENE_MOTIONS).default('in'),
});

/** `scenes`: JSON text of the storyboard in, checked scenes out. */
const sceneList = jsonText(MSG.oneclickScenesInvalid).pipe(
    z
      .array(SceneInput, { error: MSG.oneclickScenesInvalid })
      .min(1, MSG.oneclickScenesRequired)
      .max(O.maxScenes, MSG.oneclickTooManyScenes(O.maxScenes))
      .superRefine((scenes, ctx) => {
        scenes.forEach((s, i) => {
          if (!s.text.trim()) ctx.addIssue({ code: 'custom', message: MSG.oneclickSceneEmpty(i + 1), path: [i, 'text'] });
          else if (s.kind === 'broll' && !s.image_url) ctx.addIssue({ code: 'custom', message: MSG.oneclickBrollNoPicture(i + 1), path: [i, 'image_url'] });
        });
        if (countChars(storyScript(scenes)) > O.maxChars) ctx.addIssue({ code: 'custom', message: MSG.oneclickTooLong(O.maxChars) });
      }),
  );

export const OneclickSubmission = z
  .object({
    name: workName(),
    /** The voice (as works.create's user_voice_id). */
    user_voice_id: requiredId(MSG.voiceRequired),
    video_id: optionalId('数字分身'),
    photo_id: optionalId('图片'),
    /** The video channel of the avatar scenes (the offline lip-sync channel by default). */
    api: channelApi().default(O.defaultChannel),
    aspect: oneOf('画面比例', ONECLICK_ASPECTS).default('9:16'),
    subtitles: flag('字幕').default(1),
    ...subtitleLook,
    bgm_id: optionalFilter(musicTrackRef()),
    bgm_volume: bgmVolume(),
    scenes: sceneList,
    /** ours: a title card over the first LIMITS.oneclick.titleSeconds seconds ('' none). */
    title_card: text('片头标题', O.titleMaxChars).default(''),
    /** ours: the project (draft) this render belongs to; none: a new project is made. */
    project_id: optionalId('项目'),
    /** ours: the cover (封面) is the first frame of this scene (1-based) … */
    cover_scene: int('封面分镜', 1, O.maxScenes).default(1),
    /** ours: … or, when given, the frame this many seconds into the video (past its end: its last frame). */
    cover_at: optionalFilter(num('封面时间', 0, O.coverMaxSeconds)),
  })
  .superRefine((v, ctx) => {
    if (Array.isArray(v.scenes) && v.cover_scene > v.scenes.length) ctx.addIssue({ code: 'custom', message: MSG.oneclickCoverScene(v.cover_scene), path: ['cover_scene'] });
    const avatars = [v.video_id, v.photo_id].filter((x) => x !== undefined).length;
    if (avatars === 0) ctx.addIssue({ code: 'custom', message: MSG.avatarRequired, path: ['video_id'] });
    if (avatars > 1) ctx.addIssue({ code: 'custom', message: MSG.avatarConflict, path: ['video_id'] });
  });

export const OneclickProject = z.object({
  id: z.number(),
  name: z.string(),
  /** Its latest work (0: never rendered). */
  work_id: z.number(),
  /** OneclickDraft (0), or the latest work's WorkStatus. */
  status: z.number(),
  /** The work's video once done ('' before). */
  url: z.string(),
  cover: z.string(),
  /** Seconds of the work once done. */
  duration: z.number(),
  /** How many scenes the storyboard has. */
  scenes: z.number(),
  /** Why the latest render failed. */
  reason: z.string().optional(),
  create_time: Timestamp,
});
export type OneclickProject = z.infer<typeof OneclickProject>;

/** The draft a project keeps (the client's editor state): free-form JSON text, at most this long. */
const DRAFT_MAX_CHARS = 200_000;

export const oneclickCalls = defineGroup('oneclick', {
  create: userCall('POST', '/api/cozeVideo/create', {
    summary:
      'Render a storyboard as one work: one speech track cut at the scene boundaries, avatar scenes on the channel, B-roll from the ' +
      'offline camera motion, captions, ducked music. The avatar is an avatar video (video_id) or a photo-speak picture (photo_id, on a ' +
      'channel of this machine); on a remote lip-sync channel the engine renders the avatar over the whole speech once. The cover is the ' +
      'frame of cover_at seconds, else the first frame of scene cover_scene. Reserves avatar seconds × the channel\'s credits + B-roll ' +
      `seconds × ${O.brollCreditsPerSecond}; settled on the result, refunded on failure. Answers the work's id.`,
    request: OneclickSubmission,
    response: z.object({ id: z.number() }),
  }),
  history: userPageRead('/api/cozeVideo/history', { summary: 'My one-click projects, newest changed first: drafts and rendered, with their latest work\'s state.', response: countedPage(OneclickProject) }),
  saveDraft: userCall('POST', '/api/cozeVideo/draft', {
    summary: 'ours: save a project\'s draft (new without id); answers its id.',
    request: z.object({
      id: optionalId('项目'),
      name: text('名称', LIMITS.nameMaxChars).default(''),
      draft: plainString('草稿', MSG.oneclickScenesInvalid).max(DRAFT_MAX_CHARS, MSG.oneclickTooLong(O.maxChars)).refine((raw) => {
        try {
          const v = JSON.parse(raw) as unknown;
          return typeof v === 'object' && v !== null && !Array.isArray(v);
        } catch {
          return false;
        }
      }, MSG.oneclickScenesInvalid),
    }),
    response: z.object({ id: z.number() }),
  }),
  draft: userCallById('GET', '/api/cozeVideo/draft', '项目', {
    summary: 'ours: one project of mine with its draft (JSON text) to reopen in the storyboard editor.',
    response: z.object({ id: z.number(), name: z.string(), draft: z.string(), work_id: z.number(), status: z.number() }),
  }),
  remove: removeById({ path: '/api/cozeVideo/history', pathFromSpec: false, summary: 'ours: delete a project (its works stay on /works).' }, '项目'),
  storyboard: userCall('POST', '/api/cozeVideo/storyboard', {
    summary: 'ours: the storyboard proposed for a script (proposeStoryboard of the contract, the client may run it itself).',
    request: z.object({
      script: plainString('文案').trim().min(1, MSG.scriptRequired).max(SCRIPT_RAW_MAX, MSG.oneclickTooLong(O.maxChars))
        .refine((s) => countChars(s) <= O.maxChars, MSG.oneclickTooLong(O.maxChars)),
      rate: num('语速', LIMITS.sliders.rate.min, LIMITS.sliders.rate.max).default(1),
    }),
    response: z.object({
      scenes: z.array(z.object({ text: z.string(), kind: z.enum(SCENE_KINDS), motion: z.enum(SCENE_MOTIONS).optional() })),
      seconds: z.number(),
    }),
  }),
  engines: userRead('/api/cozeVideo/engines', {
    summary: 'ours: whether the copywriting chat engine (生成文案) and the text-to-image engine (生成配图) are configured, and their prices.',
    response: z.object({ chat: z.boolean(), image: z.boolean(), chat_credits: z.number(), image_credits: z.number() }),
  }),
  script: userCall('POST', '/api/cozeVideo/script', {
    summary: `ours: 生成文案: a script for a topic (≥ ${O.topicMinChars} characters), platform, style and length whose first sentence is a hook; ${LIMITS.chatAnswerCredits} credits as a chat answer, refunded when it fails.`,
    request: z.object({
      topic: requiredText('主题', MSG.oneclickTopicTooShort(O.topicMinChars), O.topicMaxChars).refine((t) => countChars(t) >= O.topicMinChars, MSG.oneclickTopicTooShort(O.topicMinChars)),
      platform: oneOf('平台', SCRIPT_PLATFORMS).default('抖音'),
      style: oneOf('风格', TOPIC_STYLES).default('口播'),
      seconds: intOneOf('时长', TOPIC_SECONDS).default(60),
    }),
    response: z.object({ title: z.string(), script: z.string() }),
  }),
  picture: userCall('POST', '/api/cozeVideo/picture', {
    summary:
      `ours: 生成配图 for one B-roll scene: the chat engine writes a picture prompt from the scene's text (${LIMITS.chatAnswerCredits} credits), ` +
      `then a text-to-image record of one picture at the aspect (${LIMITS.imageCreditsEach} credits; it renders as 文生图 does). Answers the record's id and the prompt.`,
    request: z.object({
      text: requiredText('分镜文案', MSG.oneclickPictureTextRequired, SCRIPT_RAW_MAX),
      aspect: oneOf('画面比例', ONECLICK_ASPECTS).default('9:16'),
    }),
    response: z.object({ id: z.number(), prompt: z.string() }),
  }),
});

/** The history's page size when limit is 0 or absent (int() keeps the request's number otherwise). */
export const oneclickPageLimit = (l: number): number => (l > 0 ? Math.min(l, 100) : O.historyPageSize);
