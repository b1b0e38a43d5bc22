/**
 * Image generation over the two HTTP shapes operators most often have, both `POST {base_url}/images/generations`
 * with `Authorization: Bearer <key>`:
 * - `openai`: OpenAI's images API (`{model, prompt, n, size}` → `data[].url | data[].b64_json`), which Zhipu CogView
 *   also speaks (base https://open.bigmodel.cn/api/paas/v4, model cogview-4). One request per picture (`n: 1`:
 *   dall-e-3 and CogView make one at a time), so a failure after the first picture keeps what was made. With a
 *   reference picture it asks `POST {base_url}/images/edits` (multipart `image`, `prompt`, `n`, `size`), as
 *   gpt-image-1 takes one.
 * - `siliconflow`: SiliconFlow's (`{model, prompt, image_size, batch_size, image?}` → `images[].url`), all pictures
 *   in one request; the reference goes as a data URI in `image`.
 * Failures become ImageEngineError with a Chinese message from MSG; the key is never in a message or a detail.
 */
import { MSG } from '../../../src/contract';
import { fetchWithDeadline, parseJsonBody, providerErrorMessage, ProviderUnreachable, redactKey, trimBaseUrl, type ProviderResponse } from '../provider-http';
import { ImageEngineError, type ImageEngine, type ImageRatio, type ImageRequest, type ImageResult, type MadeImage } from './image-engine';

export type ImageDialect = 'openai' | 'siliconflow';

export interface OpenAiImagesConfig {
  dialect: ImageDialect;
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Per request to the provider. */
  timeoutMs: number;
}

/**
 * Pixel sizes per ratio. OpenAI's own models draw three sizes only (the nearest is taken: 9:16 and 2:3 are both
 * portrait); other models (CogView, SiliconFlow's) take any size in multiples of 16.
 */
const OPENAI_SIZES: Record<ImageRatio, string> = { '16:9': '1536x1024', '9:16': '1024x1536', '1:1': '1024x1024', '2:3': '1024x1536' };
const DALLE3_SIZES: Record<ImageRatio, string> = { '16:9': '1792x1024', '9:16': '1024x1792', '1:1': '1024x1024', '2:3': '1024x1792' };
const FREE_SIZES: Record<ImageRatio, string> = { '16:9': '1280x720', '9:16': '720x1280', '1:1': '1024x1024', '2:3': '832x1248' };

export function imageSize(dialect: ImageDialect, model: string, ratio: ImageRatio): string {
  if (dialect === 'openai' && model.startsWith('gpt-image')) return OPENAI_SIZES[ratio];
  if (dialect === 'openai' && model.startsWith('dall-e')) return DALLE3_SIZES[ratio];
  return FREE_SIZES[ratio];
}

/** Provider error bodies kept in the log, at most this long. */
const DETAIL_MAX = 300;

export class OpenAiCompatibleImages implements ImageEngine {
  constructor(private readonly config: OpenAiImagesConfig) {}

  async generate(request: ImageRequest): Promise<ImageResult> {
    return this.config.dialect === 'siliconflow' ? this.siliconFlow(request) : this.openAi(request);
  }

  private async openAi(request: ImageRequest): Promise<ImageResult> {
    const images: MadeImage[] = [];
    for (let i = 0; i < request.count; i++) {
      try {
        images.push(...(await this.openAiOne(request)));
      } catch (err) {
        if (!(err instanceof ImageEngineError) || images.length === 0) throw err;
        return { images, shortfall: err };
      }
    }
    return { images };
  }

  private async openAiOne(request: ImageRequest): Promise<MadeImage[]> {
    const size = imageSize('openai', this.config.model, request.ratio);
    let res: ProviderResponse;
    if (request.reference) {
      const form = new FormData();
      form.set('model', this.config.model);
      form.set('prompt', request.prompt);
      form.set('n', '1');
      form.set('size', size);
      const type = request.reference.ext === 'png' ? 'image/png' : 'image/jpeg';
      form.set('image', new Blob([new Uint8Array(request.reference.bytes)], { type }), `reference.${request.reference.ext}`);
      res = await this.send('images/edits', { body: form });
    } else {
      res = await this.send('images/generations', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: this.config.model, prompt: request.prompt, n: 1, size }),
      });
    }
    const data = (parseJsonBody(res.body) as { data?: unknown } | undefined)?.data;
    return this.made(Array.isArray(data) ? data : undefined, res);
  }

  private async siliconFlow(request: ImageRequest): Promise<ImageResult> {
    const body: Record<string, unknown> = {
      model: this.config.model,
      prompt: request.prompt,
      image_size: imageSize('siliconflow', this.config.model, request.ratio),
      batch_size: request.count,
    };
    if (request.reference) {
      body.image = `data:image/${request.reference.ext === 'png' ? 'png' : 'jpeg'};base64,${request.reference.bytes.toString('base64')}`;
    }
    const res = await this.send('images/generations', { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const images = this.made((parseJsonBody(res.body) as { images?: unknown } | undefined)?.images as unknown[] | undefined, res);
    return { images: images.slice(0, request.count) };
  }

  /** `[{url} | {b64_json}]` → the pictures; none is a reply we cannot use. */
  private made(list: unknown[] | undefined, res: ProviderResponse): MadeImage[] {
    const images: MadeImage[] = [];
    for (const item of list ?? []) {
      const { url, b64_json: b64 } = (item ?? {}) as { url?: unknown; b64_json?: unknown };
      if (typeof b64 === 'string' && b64) images.push({ bytes: Buffer.from(b64, 'base64') });
      else if (typeof url === 'string' && /^https?:\/\//.test(url)) images.push({ url });
    }
    if (!images.length) throw new ImageEngineError(MSG.imageEngineBadReply, this.redact(`status ${res.status}, no images: ${res.body.toString('utf8').slice(0, DETAIL_MAX)}`), true);
    return images;
  }

  private async send(endpoint: string, init: { headers?: Record<string, string>; body: string | FormData }): Promise<ProviderResponse> {
    let res: ProviderResponse;
    try {
      res = await fetchWithDeadline(
        `${trimBaseUrl(this.config.baseUrl)}/${endpoint}`,
        { method: 'POST', headers: { ...init.headers, accept: 'application/json', authorization: `Bearer ${this.config.apiKey}` }, body: init.body },
        this.config.timeoutMs,
      );
    } catch (err) {
      if (!(err instanceof ProviderUnreachable)) throw err;
      if (err.timedOut) throw new ImageEngineError(MSG.imageEngineTimeout, `no answer within ${this.config.timeoutMs} ms`, true);
      throw new ImageEngineError(MSG.imageEngineUnreachable, `${this.config.baseUrl} unreachable`, true);
    }
    if (res.status >= 200 && res.status < 300) return res;
    const detail = this.redact(`status ${res.status}: ${providerErrorMessage(res.body.toString('utf8')).slice(0, DETAIL_MAX)}`);
    if (res.status === 401 || res.status === 403) throw new ImageEngineError(MSG.imageEngineAuthFailed, detail);
    if (res.status === 402) throw new ImageEngineError(MSG.imageEngineNoBalance, detail);
    if (res.status === 429) throw new ImageEngineError(MSG.imageEngineBusy, detail, true);
    if (res.status === 408 || res.status === 504) throw new ImageEngineError(MSG.imageEngineTimeout, detail, true);
    if (res.status >= 500) throw new ImageEngineError(MSG.imageEngineDown, detail, true);
    throw new ImageEngineError(MSG.imageEngineRejected, detail);
  }

  private redact(text: string): string {
    return redactKey(text, this.config.apiKey);
  }
}
