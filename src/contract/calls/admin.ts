import { z } from 'zod';
import { defineGroup, operatorAdd, operatorCall, operatorList } from '../call';
import { int, longText, optionalText, requiredText, text } from '../schema';
import { MSG } from '../messages';
import { SITE_FIELDS, OPERATOR_SETTINGS } from './site';
import { CHANNEL_APIS } from '../limits';

/**
 * Engines that can serve a channel: the offline engines, the speech providers, self-hosted cloning TTS servers
 * (fish-speech as HeyGem / Duix.Avatar ships it, GPT-SoVITS's api_v2), a self-hosted HeyGem / Duix.Avatar
 * lip-sync server or our offline lip-sync engine (video), or none (the channel waits).
 */
export const CHANNEL_ENGINES = { voice: ['local', 'fish', 'minimax', 'fishspeech', 'gptsovits', 'none'], video: ['local', 'lipsync', 'heygem', 'none'] } as const;
export const CHANNEL_KINDS = ['voice', 'video'] as const;
const flag = z.enum(['true', 'false', '1', '0'], { error: 'enabled 取值为 true 或 false' }).transform((v) => v === 'true' || v === '1');
const count = (label: string) => int(label, 0, 1_000_000).optional();

/** An account as operators see it (`user list`). */
const OperatorUser = z.object({
  id: z.number().int(),
  username: z.string(),
  tourist: z.boolean(),
  created_at: z.string(),
  credits: z.number().int(),
  space_used_mb: z.number(),
  space_total_gb: z.number(),
  /** Live sessions (not revoked, not expired). */
  sessions: z.number().int(),
});

/** Which voices or avatars an operator lists: the public ones unless a user is named; `id` picks one (`publish --wait`). */
const OperatorMediaQuery = z.object({
  username: optionalText('账号', 64),
  id: int('编号', 1).optional(),
  limit: int('数量', 1, 1000).default(100),
});

/** A voice or avatar with its state in words and why it failed (`voice list`, `avatar list`). */
const OperatorMedia = z.object({
  id: z.number().int(),
  name: z.string(),
  owner: z.string(),
  /** training|ready|failed for voices, cloning|ready|failed for avatars. */
  state: z.string(),
  reason: z.string(),
  /** The voice's channel; for an avatar, what the lip-sync analysis noted (no face, too small …). */
  detail: z.string(),
  created_at: z.string(),
});

/** Operator calls behind `npm run admin`: loopback only, operator key header, no envelope. */
export const SETTABLE_KEYS = [...SITE_FIELDS, ...OPERATOR_SETTINGS] as const;

export const adminCalls = defineGroup('admin', {
  userCreate: operatorCall('POST', '/api/admin/user', {
    summary: 'Create an account, optionally with a credit grant.',
    request: z.object({
      username: requiredText('账号', MSG.loginUsernameRequired, 64),
      password: requiredText('密码', MSG.loginPasswordRequired, 64).pipe(z.string().min(6, MSG.passwordTooShort)),
      credits: int('积分', 0, 100_000_000).default(0),
      expires_days: int('有效天数', 1, 36_500).default(365),
    }),
    response: z.object({ id: z.number().int(), username: z.string(), credits: z.number().int() }),
  }),
  codeCreate: operatorCall('POST', '/api/admin/code', {
    summary: 'Create redemption codes worth N credits each.',
    request: z.object({
      credits: int('积分', 1, 100_000_000),
      count: int('数量', 1, 10_000).default(1),
      expires_days: int('有效天数', 1, 36_500).default(365),
    }),
    response: z.object({ codes: z.array(z.string()) }),
  }),
  noticeAdd: operatorAdd('/api/admin/notice', 'Publish a notice to every user (content is HTML, sanitized when shown).', {
    title: requiredText('标题', '请填写公告标题', 100),
    desc: text('摘要', 300).default(''),
    content: longText('正文', 200_000).default(''),
  }),
  guideAdd: operatorAdd('/api/admin/guide', 'Add a tutorial video to a category (created when new). cover and video are local file paths or https URLs.', {
    category: requiredText('分类', '请填写分类', 50),
    name: requiredText('名称', '请填写名称', 100),
    cover: requiredText('封面', '请提供封面', 2000),
    video: requiredText('视频', '请提供视频', 2000),
  }),
  publicAvatarAdd: operatorAdd('/api/admin/publicAvatar', 'Add a ready public avatar from local files on the server machine (the media pipeline\'s `avatar publish` supersedes this).', {
    name: requiredText('名称', '请填写名称', 50),
    orientation: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)], { error: '方向取值有误（1 横屏，2 竖屏）' })),
    video: requiredText('视频', '请提供视频文件', 2000),
    cover: requiredText('封面', '请提供封面文件', 2000),
  }),
  avatarPublish: operatorAdd('/api/admin/avatarPublish', 'Publish a public avatar from a local video file through the same cloning pipeline as users\' avatars (the job runs in the server).', {
    name: requiredText('名称', '请填写名称', 50),
    video: requiredText('视频', '请提供视频文件', 2000),
  }),
  publicVoiceAdd: operatorAdd('/api/admin/publicVoice', 'Add a ready public voice from a local audio file on the server machine (the voice pipeline\'s `voice publish` supersedes this).', {
    name: requiredText('名称', '请填写名称', 50),
    audio: requiredText('音频', '请提供音频文件', 2000),
    api: text('渠道', 20).default('local'),
  }),
  voicePublish: operatorAdd('/api/admin/voicePublish', 'Publish a public voice from a local audio file through the channel\'s training (the job runs in the server); it is listed once trained.', {
    name: requiredText('名称', '请填写名称', 50),
    audio: requiredText('音频', '请提供音频文件', 2000),
    api: z.enum(CHANNEL_APIS, { error: `渠道取值有误，可用：${CHANNEL_APIS.join(', ')}` }).default('local'),
  }),
  voiceRemove: operatorCall('POST', '/api/admin/voiceRemove', {
    summary: 'Remove a public voice (a seeded one included): it leaves the public list at once; works made with it keep their sound.',
    request: z.object({ id: int('公共声音ID', 1) }),
    response: z.object({ id: z.number().int(), name: z.string() }),
  }),
  channelSet: operatorCall('POST', '/api/admin/channel', {
    summary:
      'Create or change a voice or video channel: what users see (name, desc, version, credits, a voice channel\'s dubbing price per 100 characters, free and train times, tips, languages), ' +
      'whether it is enabled, and the engine that serves it with that engine\'s settings (base URL, key, model, group; for cloning TTS servers ' +
      'the shared reference folder; for heygem where its ' +
      'results are served or mounted and how many jobs it runs at once). Keys are never echoed back.',
    request: z.object({
      api: z.enum(CHANNEL_APIS, { error: `渠道取值有误，可用：${CHANNEL_APIS.join(', ')}` }),
      kind: z.enum(CHANNEL_KINDS, { error: '类型取值为 voice 或 video' }).optional(),
      enabled: flag.optional(),
      name: requiredText('名称', '请填写名称', 50).optional(),
      desc: text('描述', 500).optional(),
      version_name: text('版本名称', 20).optional(),
      credits: count('积分'),
      /** Voice channels: the dubbing studio's price, credits per 100 characters (the offline engine is always free). */
      dub_credits: count('配音价格'),
      free_times: count('免费次数'),
      train_times: count('训练次数'),
      upload_tips: text('上传提示', 500).optional(),
      language: text('语言', 200).optional(),
      engine: text('引擎', 20).optional(),
      base_url: text('接口地址', 500).optional(),
      api_key: text('密钥', 500).optional(),
      model: text('模型', 100).optional(),
      group_id: text('分组', 100).optional(),
      timeout_ms: int('超时', 1000, 600_000).optional(),
      /** heygem: where the folder of its result paths is served over HTTP (default: base_url). */
      result_url: z.string().trim().max(500).optional(),
      /** heygem: a local mount of that folder (wins over result_url). */
      result_dir: z.string().trim().max(500).optional(),
      /** fishspeech / gptsovits: a local mount of the folder the TTS server reads reference audio from (fishspeech: its data volume). */
      share_dir: z.string().trim().max(500).optional(),
      /** gptsovits: that same folder as the TTS server sees it (default: share_dir, the same machine). */
      server_dir: z.string().trim().max(500).optional(),
      /** Remote video engines: jobs the engine runs at once (heygem: 1 unless the operator's server runs more). */
      concurrency: int('并发数', 1, 64).optional(),
    }),
    response: z.object({ kind: z.enum(CHANNEL_KINDS), api: z.string(), enabled: z.boolean(), engine: z.string(), configured: z.array(z.string()) }),
  }),
  userList: operatorCall('POST', '/api/admin/users', {
    summary: 'Accounts, newest first: credits left, space used and allowed, live sessions (`npm run admin -- user list`).',
    request: z.object({ limit: int('数量', 1, 1000).default(50), search: optionalText('账号', 64) }),
    response: z.object({ total: z.number().int(), list: z.array(OperatorUser) }),
  }),
  userShow: operatorCall('POST', '/api/admin/userShow', {
    summary: 'One account in full: credits (balance, ledger sums, live batches), space, live sessions, works by state.',
    request: z.object({ username: requiredText('账号', MSG.loginUsernameRequired, 64) }),
    response: OperatorUser.extend({
      granted: z.number().int(), spent: z.number().int(), refunded: z.number().int(),
      batches: z.array(z.object({ amount: z.number().int(), left: z.number().int(), source: z.string(), expires_at: z.string() })),
      session_list: z.array(z.object({ created_at: z.string(), expires_at: z.string(), ip: z.string() })),
      works: z.record(z.string(), z.number().int()),
    }),
  }),
  voiceList: operatorList('/api/admin/voices', 'Public voices (or one user\'s, or one by id) with their training state and failure reason, newest first.', OperatorMediaQuery, OperatorMedia),
  avatarList: operatorList('/api/admin/avatars', 'Public avatars (or one user\'s, or one by id) with their cloning state and failure reason, newest first.', OperatorMediaQuery, OperatorMedia),
  jobs: operatorCall('POST', '/api/admin/jobs', {
    summary: 'The job queue: how many jobs of each name are in each state, and the latest failed or retried runs with their reasons.',
    request: z.object({ failures: int('数量', 0, 200).default(10) }),
    response: z.object({
      counts: z.array(z.object({ name: z.string(), state: z.string(), n: z.number().int() })),
      failures: z.array(z.object({ id: z.string(), name: z.string(), state: z.string(), attempt: z.number().int(), at: z.string(), reason: z.string() })),
    }),
  }),
  siteSet: operatorCall('POST', '/api/admin/site', {
    summary: 'Set site settings (every field of the spec) and operator settings.',
    request: z.object({
      settings: z.partialRecord(z.enum(SETTABLE_KEYS, { error: `未知的设置项，可用：${SETTABLE_KEYS.join(', ')}` }), longText('设置值', 200_000)),
    }),
    response: z.object({ updated: z.array(z.string()) }),
  }),
});
