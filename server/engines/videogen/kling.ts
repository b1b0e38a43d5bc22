/**
 * Kling (可灵) video generation: a JWT (HS256; iss = access key, exp now + 1800 s, nbf now − 5 s, signed with the
 * secret key) as a Bearer token; POST /v1/videos/text2video or /v1/videos/image2video to create a task, then
 * GET …/{task_id} until it succeeds or fails. Pictures go as bare base64. Its business codes become the
 * contract's Chinese reasons; nothing here logs, so keys never reach a log.
 */
import fs from 'node:fs/promises';
import { MSG } from '../../../src/contract';
import { klingToken } from '../kling-token';
import { fetchWithDeadline, ProviderUnreachable } from '../provider-http';

export const DEFAULT_KLING_BASE_URL = 'https://api-beijing.klingai.com';
export const DEFAULT_KLING_MODEL = 'kling-v1';
const REQUEST_TIMEOUT_MS = 30_000;

export interface KlingConfig {
  baseUrl: string;
  accessKey: string;
  secretKey: string;
  model: string;
  timeoutMs?: number;
}

export type KlingTaskKind = 'text2video' | 'image2video';

export interface KlingTaskInput {
  kind: KlingTaskKind;
  prompt: string;
  negativePrompt: string;
  cfgScale: number;
  mode: 'std' | 'pro';
  duration: number;
  aspectRatio: string;
  /** image2video: local picture files, sent as bare base64. */
  image?: string;
  imageTail?: string;
}

export type KlingTaskState = { state: 'running' } | { state: 'succeed'; url: string } | { state: 'failed'; reason: string };

/** A provider failure: `message` is the user's Chinese reason, `detail` for the log; transient ones are retried. */
export class VideoGenError extends Error {
  constructor(message: string, readonly detail: string, readonly transient = false) {
    super(message);
  }
}

/** Models that refuse cfg_scale (the v2 family): it is left out for them. */
export const takesCfgScale = (model: string) => !/^kling-v2/.test(model);

/** Kling's business code → the user's reason, and whether trying again later may help. */
export function klingReason(code: number, message: string): { reason: string; transient: boolean } {
  if (code >= 1000 && code <= 1004) return { reason: MSG.klingAuthFailed, transient: false };
  if (code >= 1100 && code <= 1103) return { reason: MSG.klingAccountUnavailable, transient: false };
  if (code === 1301) return { reason: MSG.klingContentRejected, transient: false };
  if (code === 1302 || code === 1303) return { reason: MSG.klingBusy, transient: true };
  if (code >= 5000) return { reason: MSG.klingServerError, transient: true };
  return { reason: MSG.klingBadRequest(message || String(code)), transient: false };
}

interface KlingReply {
  code?: number;
  message?: string;
  data?: { task_id?: string; task_status?: string; task_status_msg?: string; task_result?: { videos?: { url?: string }[] } };
}

export class KlingClient {
  constructor(private readonly config: KlingConfig) {}

  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<NonNullable<KlingReply['data']>> {
    const url = `${this.config.baseUrl.replace(/\/+$/, '')}${path}`;
    let res;
    try {
      res = await fetchWithDeadline(url, {
        method,
        headers: { authorization: `Bearer ${klingToken(this.config.accessKey, this.config.secretKey)}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }, this.config.timeoutMs ?? REQUEST_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof ProviderUnreachable) throw new VideoGenError(MSG.klingUnreachable, err.message, true);
      throw err;
    }
    let reply: KlingReply;
    try {
      reply = JSON.parse(res.body.toString('utf8')) as KlingReply;
    } catch {
      throw new VideoGenError(res.status >= 500 ? MSG.klingServerError : MSG.klingBadRequest(`HTTP ${res.status}`), `HTTP ${res.status}, not JSON`, res.status >= 500);
    }
    if (reply.code !== 0 || res.status >= 300) {
      const code = Number(reply.code ?? (res.status >= 500 ? 5000 : 1200));
      const { reason, transient } = klingReason(code, reply.message ?? '');
      throw new VideoGenError(reason, `HTTP ${res.status}, code ${code}: ${reply.message ?? ''}`, transient);
    }
    if (!reply.data) throw new VideoGenError(MSG.klingServerError, 'reply without data', true);
    return reply.data;
  }

  /** Creates the task; answers Kling's task id. */
  async submit(input: KlingTaskInput): Promise<string> {
    const body: Record<string, unknown> = {
      model_name: this.config.model,
      prompt: input.prompt,
      negative_prompt: input.negativePrompt,
      mode: input.mode,
      aspect_ratio: input.aspectRatio,
      duration: String(input.duration),
      ...(takesCfgScale(this.config.model) ? { cfg_scale: input.cfgScale } : {}),
    };
    if (input.kind === 'image2video') {
      if (!input.image) throw new Error('image2video needs a first frame');
      body.image = (await fs.readFile(input.image)).toString('base64');
      if (input.imageTail) body.image_tail = (await fs.readFile(input.imageTail)).toString('base64');
      // Kling's image2video body has no aspect_ratio (its API reference lists model_name, image, image_tail, prompt,
      // negative_prompt, cfg_scale, mode, static_mask, dynamic_masks, camera_control, duration, callback_url,
      // external_task_id): the video takes the first frame's aspect. Only some relays accept the field.
      delete body.aspect_ratio;
    }
    const data = await this.request('POST', `/v1/videos/${input.kind}`, body);
    if (!data.task_id) throw new VideoGenError(MSG.klingServerError, 'created without task_id', true);
    return data.task_id;
  }

  async state(kind: KlingTaskKind, taskId: string): Promise<KlingTaskState> {
    const data = await this.request('GET', `/v1/videos/${kind}/${encodeURIComponent(taskId)}`);
    if (data.task_status === 'succeed') {
      const url = data.task_result?.videos?.[0]?.url;
      if (!url) return { state: 'failed', reason: MSG.videogenFailed };
      return { state: 'succeed', url };
    }
    if (data.task_status === 'failed') return { state: 'failed', reason: data.task_status_msg ? `视频生成失败：${data.task_status_msg}` : MSG.videogenFailed };
    return { state: 'running' };
  }
}
