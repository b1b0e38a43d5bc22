/**
 * ours (issue 34): the public API for integrators. The browser's calls that manage personal API keys and their
 * webhooks, and the plain REST surface `/open/v1/…` (JSON, `Authorization: Bearer <key>`, no envelope) whose
 * schemas the server turns into its OpenAPI document. Each REST endpoint runs a browser call as the key's user.
 */
import { z } from 'zod';
import { defineGroup, userCall, type HttpMethod } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { requiredText, text } from '../schema';
import { Timestamp, removeById, requiredId, userList } from './fields';
import { Space } from './credits';

/** Every key starts so, to be recognisable in a config file or a leak scanner. */
export const API_KEY_PREFIX = 'aisa_';
/** Where the REST surface, its document and its reference page live. */
export const OPEN_BASE = '/open/v1';
export const OPEN_DOCS_PATH = '/open/docs';
/** Header names of the REST surface. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const WEBHOOK_SIGNATURE_HEADER = 'x-aisa-signature';
export const WEBHOOK_TIMESTAMP_HEADER = 'x-aisa-timestamp';
export const WORK_EVENTS = ['work.done', 'work.failed'] as const;
export const DUBBING_EVENTS = ['dubbing.done', 'dubbing.failed'] as const;
export const WEBHOOK_EVENTS = [...WORK_EVENTS, ...DUBBING_EVENTS] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** A webhook delivery's status: 1 pending (retrying), 2 delivered, 3 given up. */
export const DeliveryStatus = { Pending: 1, Delivered: 2, Failed: 3 } as const;

export const ApiKeyItem = z.object({
  id: z.number(),
  name: z.string(),
  /** The key's first characters (aisa_xxxx…); the rest is never shown again. */
  prefix: z.string(),
  create_time: Timestamp,
  /** '' when never used. */
  last_used_time: z.string(),
  /** The key's callback URL ('' without webhooks). */
  webhook_url: z.string(),
});
export type ApiKeyItem = z.infer<typeof ApiKeyItem>;

export const WebhookDelivery = z.object({
  id: z.number(),
  event: z.string(),
  object_id: z.number(),
  status: z.number(),
  attempts: z.number(),
  /** The receiver's last HTTP status (0: no answer). */
  last_code: z.number(),
  create_time: Timestamp,
  update_time: Timestamp,
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

const keyId = () => requiredId(MSG.apiKeyMissing);

export const openapiCalls = defineGroup('openapi', {
  keyCreate: userCall('POST', '/api/user/apiKey', {
    summary: `Create a personal API key (at most ${LIMITS.openApi.maxKeys}; not for guests): the key and its webhook secret are answered once, only their hash is kept.`,
    request: z.object({ name: requiredText('名称', MSG.apiKeyNameRequired, LIMITS.nameMaxChars) }),
    response: z.object({ id: z.number(), key: z.string(), webhook_secret: z.string() }),
  }),
  keyList: userList({ path: '/api/user/apiKey', pathFromSpec: false, summary: 'The user\'s live API keys, newest first (name, first characters, created, last used, callback URL).' }, ApiKeyItem),
  keyRemove: removeById({ path: '/api/user/apiKey', pathFromSpec: false, summary: 'Revoke an API key: every later request with it answers 401.' }, '密钥ID'),
  webhookSet: userCall('POST', '/api/user/apiKeyWebhook', {
    summary: 'Set (or clear with \'\') the callback URL of a key: https and a public address only (the SSRF guard).',
    request: z.object({ id: keyId(), url: text('回调地址', 1000) }),
    response: z.object({}),
  }),
  deliveries: userCall('GET', '/api/user/apiKeyWebhook', {
    summary: `A key's latest webhook deliveries (at most ${LIMITS.openApi.deliveryLogSize}): event, status, attempts, last response code.`,
    request: z.object({ id: keyId() }),
    response: z.object({ list: z.array(WebhookDelivery) }),
  }),
});

// ---- the REST surface: what the document says, the server's open routes follow

export const OpenError = z
  .object({ code: z.number().meta({ example: 1 }), msg: z.string().meta({ example: MSG.apiKeyInvalid }) })
  .meta({ id: 'Error', description: 'Every refusal: code 1 and the reason in Chinese, with the HTTP status that fits (400, 401, 402, 404, 409, 429).' });

const id = (description: string, example = 1) => z.number().int().positive().meta({ description, example });

export const OpenMe = z.object({
  username: z.string().meta({ example: '13800000000' }),
  credits: z.number().int().meta({ description: '积分余额', example: 1200 }),
  space: Space.meta({ description: '存储空间（MB）' }),
}).meta({ id: 'Me' });

export const OpenAvatar = z.object({
  id: id('数字分身ID', 12),
  name: z.string().meta({ example: '主播' }),
  cover: z.string(),
  source: z.number().int().meta({ description: '1 我的，2 公共' }),
  status: z.number().int().optional().meta({ description: '1 处理中，3 可用，4 失败' }),
  duration: z.number().optional(),
}).meta({ id: 'Avatar' });

export const OpenVoice = z.object({
  id: id('声音ID', 7),
  name: z.string().meta({ example: '我的声音' }),
  url: z.string().meta({ description: '试听音频' }),
  source: z.number().int().meta({ description: '1 我的，2 公共' }),
  generate_status: z.number().int().meta({ description: '1 训练中，2 可用，3 失败' }),
}).meta({ id: 'Voice' });

export const OpenWorkCreate = z.object({
  name: z.string().meta({ example: '新品介绍' }),
  avatar_id: id('数字分身ID（我的或公共）', 12),
  voice_id: id('声音ID：用文案驱动时必填', 7).optional(),
  text: z.string().optional().meta({ description: '文案（与 voice_id 一起）', example: '大家好，欢迎来到直播间。' }),
  audio_file_id: id('上传的音频 file_id：用音频驱动时代替 voice_id 和 text', 30).optional(),
  channel: z.string().meta({ description: '视频通道（api），见网页端的通道列表', example: 'local' }),
  subtitles: z.boolean().optional().meta({ description: '烧录字幕', example: false }),
}).meta({ id: 'WorkCreate' });

/** A job of the REST surface (a work, a dub) as its GET answers it: its state, its files once done, its seconds, credits and failure; `say` holds the words its document uses. */
const openJob = (jobId: z.ZodNumber, say: { status: string; url: string; srt: string; credits: string }) =>
  z.object({
    id: jobId,
    name: z.string(),
    status: z.number().int().meta({ description: say.status, example: 3 }),
    url: z.string().meta({ description: say.url }),
    srt: z.string().meta({ description: say.srt }),
    duration: z.number().meta({ description: '秒' }),
    credits: z.number().int().meta({ description: say.credits }),
    reason: z.string().meta({ description: '失败原因' }),
    create_time: Timestamp,
  });

export const OpenWork = openJob(id('作品ID', 42), {
  status: '1 排队，2 合成中，3 成功，4 失败', url: '成功后的视频地址（带签名的相对地址，拼上站点地址下载）',
  srt: '字幕（SRT）地址，没有时为空', credits: '扣除的积分（合成中为预留的积分）',
}).meta({ id: 'Work' });

export const OpenDubbingLine = z.object({
  voice_id: id('声音ID（我的或公共的，已训练完成）', 7),
  text: z.string().meta({ description: '台词（可含停顿标记 <#秒数#>）', example: '大家好，欢迎收听。' }),
  rate: z.number().optional().meta({ description: '语速' }),
  volume: z.number().optional().meta({ description: '音量' }),
  pitch: z.number().optional().meta({ description: '音调' }),
  emotion: z.string().optional().meta({ description: '情绪（仅 MiniMax 声音）' }),
  pause_after: z.number().optional().meta({ description: '句后停顿（秒）', example: 0.5 }),
  role: z.string().optional().meta({ description: '角色名（对话时，如 旁白、甲）', example: '旁白' }),
}).meta({ id: 'DubbingLine' });

/** The browser's dubbing create call with its lines as a JSON array rather than JSON text; the call checks them. */
export const OpenDubbingCreate = z.object({
  name: z.string().meta({ example: '产品旁白' }),
  lines: z.array(OpenDubbingLine).meta({
    description: `台词列表（最多 ${LIMITS.dubbing.maxLines} 句、${LIMITS.dubbing.maxChars} 字、${LIMITS.dubbing.maxRoles} 个角色）`,
    example: [{ voice_id: 7, text: '大家好，欢迎收听。', role: '旁白' }, { voice_id: 8, text: '今天聊聊新品。', role: '主持人', pause_after: 0.5 }],
  }),
  gap: z.number().optional().meta({ description: `句间隔（秒，默认 ${LIMITS.dubbing.gap.default}）`, example: LIMITS.dubbing.gap.default }),
  bgm: z.string().optional().meta({ description: '背景音乐：音乐库的曲目（lib-<n> 或 my-<n>）', example: 'lib-3' }),
  bgm_id: id('背景音乐：素材库里的音频ID（有 bgm 时不用）', 15).optional(),
  bgm_volume: z.number().optional().meta({ description: '背景音乐音量', example: LIMITS.dubbing.bgmVolume.default }),
}).meta({ id: 'DubbingCreate' });

export const OpenDubbing = openJob(id('配音ID', 51), {
  status: '1 排队，2 生成中，3 完成，4 失败', url: '完成后的 mp3 地址（带签名的相对地址，拼上站点地址下载）',
  srt: '字幕（SRT）地址，完成前为空', credits: '扣除的积分（生成中为预留的积分）',
}).meta({ id: 'Dubbing' });

export const OpenPage = z.object({
  page: z.coerce.number().int().min(1).default(1).meta({ example: 1 }),
  limit: z.coerce.number().int().min(1).max(LIMITS.openApi.maxPageSize).default(20).meta({ example: 20 }),
});

export interface OpenEndpoint {
  id: string;
  method: HttpMethod;
  /** Under OPEN_BASE, path parameters as `{id}`. */
  path: string;
  summary: string;
  /** JSON body (POST), or multipart with one `file` field. */
  body?: z.ZodType | 'multipart';
  query?: z.ZodObject;
  /** The `{id}` of the path. */
  pathId?: boolean;
  response: z.ZodType;
}

const listOf = (item: z.ZodType) => z.object({ list: z.array(item), total: z.number().int() });
const Created = z.object({ id: id('作品或配音的ID', 42) }).meta({ id: 'Created' });
const Empty = z.object({}).meta({ id: 'Empty' });

/** The REST surface, in the document's order. */
export const OPEN_ENDPOINTS = {
  me: { id: 'me', method: 'GET', path: '/me', summary: '账号：积分余额与存储空间', response: OpenMe },
  avatars: { id: 'avatars', method: 'GET', path: '/avatars', summary: '可用的数字分身（我的和公共的）', response: z.object({ list: z.array(OpenAvatar) }) },
  voices: { id: 'voices', method: 'GET', path: '/voices', summary: '可用的声音（我的和公共的）', response: z.object({ list: z.array(OpenVoice) }) },
  upload: {
    id: 'upload', method: 'POST', path: '/uploads', body: 'multipart',
    summary: '上传文件（multipart，字段 file；type 为 video、voice 或 image），与网页上传同样的内容检查与空间配额',
    query: z.object({ type: z.enum(['video', 'voice', 'image']).default('voice').meta({ description: '文件类型' }) }),
    response: z.object({ file_id: id('文件ID', 30) }).meta({ id: 'Upload' }),
  },
  workCreate: { id: 'workCreate', method: 'POST', path: '/works', summary: '提交视频作品（预留积分，完成后按实际时长结算）', body: OpenWorkCreate, response: Created },
  workList: { id: 'workList', method: 'GET', path: '/works', summary: '我的作品（新的在前，分页）', query: OpenPage, response: listOf(OpenWork).meta({ id: 'WorkList' }) },
  workGet: { id: 'workGet', method: 'GET', path: '/works/{id}', summary: '一个作品的状态与结果', pathId: true, response: OpenWork },
  workDelete: { id: 'workDelete', method: 'DELETE', path: '/works/{id}', summary: '删除已结束的作品', pathId: true, response: Empty },
  dubbingCreate: { id: 'dubbingCreate', method: 'POST', path: '/dubbings', summary: '提交配音（多句多角色合成一个 mp3 与字幕；预留积分，按实际朗读的字数结算）', body: OpenDubbingCreate, response: Created },
  dubbingList: { id: 'dubbingList', method: 'GET', path: '/dubbings', summary: '我的配音（新的在前，分页）', query: OpenPage, response: listOf(OpenDubbing).meta({ id: 'DubbingList' }) },
  dubbingGet: { id: 'dubbingGet', method: 'GET', path: '/dubbings/{id}', summary: '一个配音的状态与结果', pathId: true, response: OpenDubbing },
  dubbingDelete: { id: 'dubbingDelete', method: 'DELETE', path: '/dubbings/{id}', summary: '删除已结束的配音', pathId: true, response: Empty },
} as const satisfies Record<string, OpenEndpoint>;

/** What a webhook posts: the event and the object as `GET /works/{id}` or `GET /dubbings/{id}` answers it. */
export const WebhookBody = z
  .union([
    z.object({ event: z.enum(WORK_EVENTS), created: z.number().int(), data: OpenWork }),
    z.object({ event: z.enum(DUBBING_EVENTS), created: z.number().int(), data: OpenDubbing }),
  ])
  .meta({ id: 'WebhookEvent' });
