/**
 * Kling's asynchronous image task: `POST {base}/v1/images/generations` with `{model_name, prompt, n, aspect_ratio,
 * image?}` (the reference as bare base64) answers `{code: 0, data: {task_id}}`; `GET {base}/v1/images/generations/
 * {task_id}` is polled until `data.task_status` is `succeed` (`task_result.images[].url`) or `failed`
 * (`task_status_msg`). Every request carries `Authorization: Bearer <JWT>`, an HS256 token of the access key (`iss`)
 * signed with the secret key, valid 30 minutes. Failures become ImageEngineError; no key reaches a message or detail.
 */
import { klingToken } from '../kling-token';
import { MSG } from '../../../src/contract';
import { fetchWithDeadline, parseJsonBody, providerErrorMessage, ProviderUnreachable, redactKey, trimBaseUrl, type ProviderResponse } from '../provider-http';
import { ImageEngineError, type ImageEngine, type ImageRequest, type ImageResult } from './image-engine';

export interface KlingImagesConfig {
  baseUrl: string;
  accessKey: string;
  secretKey: string;
  model: string;
  /** The whole task, submit to result. */
  timeoutMs: number;
  /** How often the task is asked about. */
  pollMs?: number;
}

const DETAIL_MAX = 300;
interface KlingReply {
  code?: number;
  message?: string;
  data?: { task_id?: string; task_status?: string; task_status_msg?: string; task_result?: { images?: { url?: unknown }[] } };
}

export class KlingImages implements ImageEngine {
  constructor(private readonly config: KlingImagesConfig) {}

  async generate(request: ImageRequest): Promise<ImageResult> {
    const deadline = Date.now() + this.config.timeoutMs;
    const body: Record<string, unknown> = { model_name: this.config.model, prompt: request.prompt, n: request.count, aspect_ratio: request.ratio };
    if (request.reference) body.image = request.reference.bytes.toString('base64');
    const submitted = await this.send('POST', '/v1/images/generations', JSON.stringify(body), deadline);
    const taskId = submitted.data?.task_id;
    if (!taskId) throw new ImageEngineError(MSG.imageEngineBadReply, `no task_id: ${JSON.stringify(submitted).slice(0, DETAIL_MAX)}`, true);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, this.config.pollMs ?? 2000));
      if (Date.now() > deadline) throw new ImageEngineError(MSG.imageEngineTimeout, `task ${taskId} unfinished after ${this.config.timeoutMs} ms`, true);
      const task = (await this.send('GET', `/v1/images/generations/${encodeURIComponent(taskId)}`, undefined, deadline)).data;
      if (task?.task_status === 'failed') throw new ImageEngineError(MSG.imageEngineRejected, this.redact(`task ${taskId} failed: ${task.task_status_msg ?? ''}`));
      if (task?.task_status !== 'succeed') continue;
      const images = (task.task_result?.images ?? []).flatMap((i) => (typeof i.url === 'string' && /^https?:\/\//.test(i.url) ? [{ url: i.url }] : []));
      if (!images.length) throw new ImageEngineError(MSG.imageEngineBadReply, `task ${taskId} succeeded without images`, true);
      return { images: images.slice(0, request.count) };
    }
  }

  private async send(method: 'GET' | 'POST', path: string, body: string | undefined, deadline: number): Promise<KlingReply> {
    let res: ProviderResponse;
    try {
      res = await fetchWithDeadline(
        `${trimBaseUrl(this.config.baseUrl)}${path}`,
        {
          method,
          headers: { accept: 'application/json', authorization: `Bearer ${klingToken(this.config.accessKey, this.config.secretKey)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body,
        },
        Math.max(1000, deadline - Date.now()),
      );
    } catch (err) {
      if (!(err instanceof ProviderUnreachable)) throw err;
      if (err.timedOut) throw new ImageEngineError(MSG.imageEngineTimeout, `no answer within ${this.config.timeoutMs} ms`, true);
      throw new ImageEngineError(MSG.imageEngineUnreachable, `${this.config.baseUrl} unreachable`, true);
    }
    const reply = parseJsonBody(res.body) as KlingReply | undefined;
    const detail = () => this.redact(`status ${res.status}, code ${reply?.code ?? '-'}: ${providerErrorMessage(res.body.toString('utf8')).slice(0, DETAIL_MAX)}`);
    if (res.status === 401 || res.status === 403) throw new ImageEngineError(MSG.imageEngineAuthFailed, detail());
    if (res.status === 429) throw new ImageEngineError(MSG.imageEngineBusy, detail(), true);
    if (res.status >= 500) throw new ImageEngineError(MSG.imageEngineDown, detail(), true);
    if (res.status >= 400 || !reply) throw new ImageEngineError(res.status >= 400 ? MSG.imageEngineRejected : MSG.imageEngineBadReply, detail(), res.status < 400);
    if (reply.code !== 0) throw new ImageEngineError(MSG.imageEngineRejected, detail());
    return reply;
  }

  private redact(text: string): string {
    return redactKey(redactKey(text, this.config.secretKey), this.config.accessKey);
  }
}
