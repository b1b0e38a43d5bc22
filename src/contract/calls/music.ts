/**
 * AI music (part 2 §2.1 route store/music/index, "AI music", contents not shown; §7 lists /api/music/myTask and
 * createMusic as existing; the store card AI 作词作曲，生成原创音乐) and the music library every music picker offers.
 *
 * create and myTask are the interfaces other checks use (issue 31): createMusic takes title, prompt, lyrics?,
 * instrumental (0/1) and answers {id}; myTask pages the user's tasks. Everything else here is ours: rename, delete,
 * save to the material library, use as background music, the engine state and price, the library, and the
 * operator's publish and engine settings.
 */
import { z } from 'zod';
import { defineGroup, userCall, specCall, operatorCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { id, int, num, page, plainString, requiredText, text } from '../schema';
import { Flag, Timestamp, flag, jobPage, removeById, renameById, userCallById, userList, userRead } from './fields';

const M = LIMITS.music;

/** A task's status: 1 queued, 2 running, 3 done, 4 failed (with its reason). */
export const MusicStatus = { Queued: 1, Running: 2, Done: 3, Failed: 4 } as const;
export const MUSIC_IN_PROGRESS = [MusicStatus.Queued, MusicStatus.Running] as const;

/** The engines that may make music; `none` turns generation off (the library still works). */
export const MUSIC_ENGINES = ['minimax', 'none'] as const;
export type MusicEngine = (typeof MUSIC_ENGINES)[number];

export const MusicTask = z.object({
  id: z.number(),
  title: z.string(),
  /** MusicStatus. */
  status: z.number(),
  /** The mp3 once done ('' before). */
  url: z.string(),
  /** Seconds, once done. */
  duration: z.number(),
  /** As given, or as written from the description; '' for instrumentals. */
  lyrics: z.string(),
  instrumental: Flag,
  /** Why it failed, in Chinese (its credits were returned). */
  reason: z.string().optional(),
  create_time: Timestamp,
  /** ours: the description it was made from. */
  prompt: z.string(),
  /** ours: 1 when the user marked it as background music (offered by every music picker). */
  background: Flag,
  /** ours: credits reserved (in progress) or paid (done); 0 when refunded. */
  credits: z.number(),
});
export type MusicTask = z.infer<typeof MusicTask>;

/** A track a music picker offers: a published library track or one of the user's own marked as background music. */
export const MusicTrack = z.object({
  /** `lib-<n>` for the library, `my-<n>` for the user's own task. */
  id: z.string(),
  name: z.string(),
  mood: z.string(),
  url: z.string(),
  duration: z.number(),
  source: z.enum(['library', 'mine']),
});
export type MusicTrack = z.infer<typeof MusicTrack>;

/** How a picker names a track in a request: `lib-<n>` or `my-<n>`. */
export const musicTrackRef = (label = '背景音乐') =>
  plainString(label, MSG.musicTrackMissing).trim().regex(/^(lib|my)-[1-9]\d{0,9}$/, MSG.musicTrackMissing);

/** How loud background music plays (LIMITS.music.bgmVolume: a share of its own loudness). */
export const bgmVolume = () => num('背景音乐音量', M.bgmVolume.min, M.bgmVolume.max).default(M.bgmVolume.default);

export const parseMusicTrackRef = (ref: string): { source: 'library' | 'mine'; id: number } => {
  const [kind, n] = ref.split('-');
  return { source: kind === 'lib' ? 'library' : 'mine', id: Number(n) };
};

export const musicCalls = defineGroup('music', {
  create: userCall('POST', '/api/music/createMusic', {
    summary:
      `Generate a song or an instrumental (spec name: createMusic): title, prompt (style, mood, instruments, tempo; at most ${M.promptMaxChars} characters), ` +
      `lyrics (with section tags; a song without lyrics has them written from the prompt), instrumental 0/1. The price (operator setting ` +
      `music_credits, default ${M.defaultCredits}) is reserved now and refunded, with the reason on the task, if it fails.`,
    request: z.object({
      title: requiredText('歌曲名称', MSG.musicTitleRequired, M.titleMaxChars),
      prompt: requiredText('音乐描述', MSG.musicPromptRequired, M.promptMaxChars),
      lyrics: text('歌词', M.lyricsMaxChars).default(''),
      instrumental: flag('纯音乐').default(0),
    }),
    response: z.object({ id: z.number() }),
  }),
  myTask: specCall('GET', '/api/music/myTask', {
    summary: `The user's music tasks, newest first; generate (ours) counts those in progress (the screen polls while > 0).`,
    request: z.object({ page: page(), limit: int('条数', 0, 100).default(M.historyPageSize) }),
    response: jobPage(MusicTask),
  }),
  /** ours */
  remove: removeById({ path: '/api/music/task', pathFromSpec: false, summary: 'ours: delete a finished or failed task and its file (a copy saved to the material library stays).' }, '音乐ID'),
  /** ours */
  rename: renameById({ path: '/api/music/rename', pathFromSpec: false, summary: 'ours: rename a task; answers MSG.renameSucceeded.' }, '音乐ID'),
  /** ours */
  save: userCallById('POST', '/api/music/material', '音乐ID', {
    summary: 'ours: save a finished track to the material library as an audio (its own copy); answers its id.',
    response: z.object({ id: z.number() }),
  }),
  /** ours */
  background: userCall('POST', '/api/music/background', {
    summary: 'ours: mark (1) or unmark (0) a finished track as background music, offered by every music picker beside the library.',
    request: z.object({ id: id('音乐ID'), background: flag('背景音乐').default(1) }),
    response: z.object({ background: Flag }),
  }),
  /** ours */
  engine: userRead('/api/music/engine', {
    summary: 'ours: whether generation is available (the engine, or null) and what a song costs.',
    response: z.object({ engine: z.enum(MUSIC_ENGINES).nullable(), credits: z.number() }),
  }),
  /** ours */
  library: userList(
    { path: '/api/music/library', pathFromSpec: false, summary: 'ours: what the user may pick as background music: the published library tracks, then their own done tracks marked as background music.' },
    MusicTrack,
  ),
  /** ours: the operator's */
  publish: operatorCall('POST', '/api/admin/musicPublish', {
    summary: 'Publish a library track from a local audio file on the server machine, checked like an upload and normalised in loudness.',
    request: z.object({
      name: requiredText('名称', '请填写名称', LIMITS.nameMaxChars),
      audio: requiredText('音频', '请提供音频文件', 2000),
      mood: text('情绪', M.moodMaxChars).default(''),
    }),
    response: z.object({ id: z.number().int(), duration: z.number() }),
  }),
  /** ours: the operator's */
  engineSet: operatorCall('POST', '/api/admin/musicEngine', {
    summary: 'Turn AI music on (minimax: its own key, or the voice channel mm\'s) or off (none); base URL and model optional.',
    request: z.object({
      engine: z.enum(MUSIC_ENGINES, { error: `引擎取值有误，可用：${MUSIC_ENGINES.join(', ')}` }),
      api_key: text('密钥', 500).optional(),
      base_url: text('地址', 500).optional(),
      model: text('模型', 100).optional(),
    }),
    response: z.object({ engine: z.enum(MUSIC_ENGINES), key: z.enum(['own', 'voice-channel', 'none']) }),
  }),
});
