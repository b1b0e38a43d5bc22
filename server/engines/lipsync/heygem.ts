/**
 * A self-hosted HeyGem / Duix.Avatar GPU lip-sync server (its face2face "gen-video" service, port 8383) as a
 * remote lip-sync engine.
 *
 * Protocol as served by face2face's Flask app (app.py of the 2023-12 face2face_train code that the HeyGem and
 * Duix.Avatar images ship, checked against Duix.Avatar's own client, web/server/src/services/video.js and
 * api/f2f.js, 2025), every answer HTTP 200 with a JSON body sent as text/html, `{code, success, msg, data}`:
 * - POST /easy/submit `{audio_url, video_url, code, chaofen, watermark_switch, pn}`. code 10000 accepted (its
 *   `msg` is the number 10000), 10001 busy (one job at a time; the submission is dropped, not queued),
 *   10002 bad parameters (`msg` names the missing one), 10003 lock failure, 9999 system error.
 *   audio_url and video_url are fetched by the server when they are http(s) URLs, else read as its local paths.
 * - GET /easy/query?code= → code 10000 with `data {code, status, progress, result, msg}`: status 1 running,
 *   2 done, 3 failed; progress 0–100; `result` the video's path relative to the server's data directory
 *   (e.g. `/<code>-r.mp4`, in its temp/ folder). 10004 unknown task. 9999/10002/10003 count as failed (as
 *   Duix.Avatar's client counts them). A task answered done or failed once is forgotten: the next query is 10004.
 * The server does not serve results itself: Duix.Avatar reads them from the shared data volume, others put a
 * static file server in front of it. So the channel names either `result_dir` (a local mount of the folder the
 * result paths are relative to) or `result_url` (where that folder is served); without either, results are
 * fetched from the base URL (a proxy in front of the server that serves both).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { downloadWithDeadline, fetchWithDeadline, parseJsonBody, ProviderDownloadTooLarge, ProviderUnreachable, trimBaseUrl, type ProviderResponse } from '../provider-http';
import { LipSyncEngineError, type RemoteLipSyncEngine, type RemoteLipSyncTask, type RemoteSubmitOutcome, type RemoteTaskState } from './remote';

/** How the operator configures a heygem channel (`npm run admin -- channel set … --engine heygem --base-url …`). */
export interface HeyGemConfig {
  /** The face2face service, e.g. http://gpu-host:8383 */
  base_url?: string;
  /** Where the folder the result paths are relative to is served over HTTP (default: base_url). */
  result_url?: string;
  /** Or a local mount of that folder (takes precedence over result_url). */
  result_dir?: string;
  /** Per API exchange, ms. */
  timeout_ms?: number;
  /** For fetching one result video, ms. */
  download_timeout_ms?: number;
}

/** What the user reads (the render job appends its refund note). */
export const HEYGEM_MSG = {
  notConfigured: '该渠道尚未配置唇形合成服务地址',
  misconfigured: '唇形合成服务地址配置有误，请联系管理员',
  unreachable: '唇形合成服务无法连接，请稍后重试',
  timeout: '唇形合成服务响应超时，请稍后重试',
  unavailable: '唇形合成服务暂时不可用，请稍后重试',
  badReply: '唇形合成服务返回了无法识别的应答，请稍后重试',
  rejected: '唇形合成服务拒绝了任务参数，请联系管理员',
  internalError: '唇形合成服务内部错误，请稍后重试',
  failed: '唇形合成失败，请更换数字人视频后重试',
  resultMissing: '唇形合成结果无法获取，请联系管理员检查结果目录配置',
  resultInvalid: '唇形合成服务返回的视频无效',
  resultTooLarge: '唇形合成结果文件过大',
} as const;

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
const MAX_RESULT_BYTES = 4 * 1024 ** 3;

const CODE = { ok: 10000, busy: 10001, badParams: 10002, lockFailed: 10003, unknownTask: 10004, systemError: 9999 } as const;
const STATUS = { running: 1, done: 2, failed: 3 } as const;

interface Envelope {
  code: number;
  msg: string;
  data: Record<string, unknown>;
}

const bad = (detail: string) => new LipSyncEngineError(HEYGEM_MSG.badReply, true, detail);

function httpUrl(raw: string | undefined): URL | undefined {
  try {
    const url = new URL(trimBaseUrl(raw ?? ''));
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

export class HeyGemEngine implements RemoteLipSyncEngine {
  readonly kind = 'remote';
  readonly name = 'heygem';
  private readonly baseUrl: string;
  private readonly resultUrl: string;
  private readonly resultDir: string;
  private readonly timeoutMs: number;
  private readonly downloadTimeoutMs: number;

  constructor(config: HeyGemConfig) {
    if (!config.base_url?.trim()) throw new LipSyncEngineError(HEYGEM_MSG.notConfigured);
    const base = httpUrl(config.base_url);
    const results = config.result_url?.trim() ? httpUrl(config.result_url) : base;
    if (!base || !results) throw new LipSyncEngineError(HEYGEM_MSG.misconfigured);
    this.baseUrl = trimBaseUrl(base.href);
    this.resultUrl = trimBaseUrl(results.href);
    this.resultDir = config.result_dir?.trim() ? path.resolve(config.result_dir.trim()) : '';
    this.timeoutMs = config.timeout_ms && config.timeout_ms > 0 ? config.timeout_ms : DEFAULT_TIMEOUT_MS;
    this.downloadTimeoutMs = config.download_timeout_ms && config.download_timeout_ms > 0 ? config.download_timeout_ms : DEFAULT_DOWNLOAD_TIMEOUT_MS;
  }

  async submit(task: RemoteLipSyncTask): Promise<RemoteSubmitOutcome> {
    // chaofen (face super-resolution) and the watermark off; pn 1 plays the avatar forward then back when the
    // speech outlasts it, so there is no jump at the loop point.
    const body = { audio_url: task.audioUrl, video_url: task.videoUrl, code: task.code, chaofen: 0, watermark_switch: 0, pn: 1 };
    const reply = await this.call('/easy/submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    switch (reply.code) {
      case CODE.ok:
        return { state: 'accepted' };
      case CODE.busy:
        return { state: 'busy' };
      case CODE.badParams:
        throw new LipSyncEngineError(HEYGEM_MSG.rejected, false, reply.msg);
      case CODE.lockFailed:
      case CODE.systemError:
        throw new LipSyncEngineError(HEYGEM_MSG.internalError, true, reply.msg);
      default:
        throw bad(`submit answered code ${reply.code}`);
    }
  }

  async query(code: string): Promise<RemoteTaskState> {
    const reply = await this.call(`/easy/query?code=${encodeURIComponent(code)}`, { method: 'GET' });
    switch (reply.code) {
      case CODE.unknownTask:
        return { state: 'unknown' };
      case CODE.systemError:
      case CODE.badParams:
      case CODE.lockFailed:
        return { state: 'failed', reason: HEYGEM_MSG.internalError, detail: `code ${reply.code}: ${reply.msg}` };
      case CODE.ok:
        break;
      default:
        throw bad(`query answered code ${reply.code}`);
    }
    const { status, progress, result, msg } = reply.data;
    switch (status) {
      case STATUS.running:
        return { state: 'running', progress: typeof progress === 'number' && Number.isFinite(progress) ? Math.min(100, Math.max(0, Math.round(progress))) : 0 };
      case STATUS.done:
        if (typeof result !== 'string' || !result.trim()) throw bad('done without a result');
        return { state: 'done', result: result.trim() };
      case STATUS.failed:
        return { state: 'failed', reason: HEYGEM_MSG.failed, detail: typeof msg === 'string' ? msg : '' };
      default:
        throw bad(`query answered status ${String(status)}`);
    }
  }

  async fetchResult(result: string, output: string): Promise<{ bytes: number }> {
    const bytes = this.resultDir ? await this.copyResult(result, output) : await this.downloadResult(result, output);
    if (!(await startsLikeMp4(output))) {
      await fs.promises.rm(output, { force: true });
      throw new LipSyncEngineError(HEYGEM_MSG.resultInvalid, false, `result ${result} is not an mp4`);
    }
    return { bytes };
  }

  /** One API exchange, answered with its envelope; anything else is the engine being down or garbled. */
  private async call(pathAndQuery: string, init: RequestInit): Promise<Envelope> {
    let res: ProviderResponse;
    try {
      res = await fetchWithDeadline(`${this.baseUrl}${pathAndQuery}`, init, this.timeoutMs);
    } catch (err) {
      if (err instanceof ProviderUnreachable) throw new LipSyncEngineError(err.timedOut ? HEYGEM_MSG.timeout : HEYGEM_MSG.unreachable, true);
      throw err;
    }
    if (res.status === 404 || res.status === 405) throw new LipSyncEngineError(HEYGEM_MSG.misconfigured, false, `HTTP ${res.status} for ${pathAndQuery.split('?')[0]}`);
    if (res.status >= 500) throw new LipSyncEngineError(HEYGEM_MSG.unavailable, true, `HTTP ${res.status}`);
    if (res.status !== 200) throw bad(`HTTP ${res.status}`);
    const json = parseJsonBody(res.body);
    if (!json || typeof json !== 'object' || Array.isArray(json)) throw bad(`not a JSON object: ${res.body.subarray(0, 120).toString('utf8')}`);
    const { code, msg, data } = json as { code?: unknown; msg?: unknown; data?: unknown };
    if (typeof code !== 'number') throw bad('no numeric code');
    return {
      code,
      msg: typeof msg === 'string' ? msg : String(msg ?? ''),
      data: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {},
    };
  }

  /** The result's path segments; never a way out of the result folder. */
  private segments(result: string): string[] {
    let pathname = result;
    if (/^https?:\/\//i.test(result)) {
      // Some builds answer a full URL; only one inside the configured result folder is followed.
      const url = httpUrl(result);
      const base = new URL(this.resultUrl);
      const prefix = base.pathname.replace(/\/$/, '');
      if (!url || url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/`)) throw bad(`result URL outside the result folder: ${result}`);
      try {
        pathname = decodeURIComponent(url.pathname.slice(prefix.length));
      } catch {
        throw bad(`result URL not decodable: ${result}`);
      }
    }
    const parts = pathname.split(/[\\/]+/).filter(Boolean);
    if (parts.length === 0 || parts.some((p) => p === '..' || p === '.')) throw bad(`unusable result path: ${result}`);
    return parts;
  }

  private async downloadResult(result: string, output: string): Promise<number> {
    const url = `${this.resultUrl}/${this.segments(result).map(encodeURIComponent).join('/')}`;
    let got: { status: number; bytes: number };
    try {
      got = await downloadWithDeadline(url, output, this.downloadTimeoutMs, MAX_RESULT_BYTES);
    } catch (err) {
      if (err instanceof ProviderUnreachable) throw new LipSyncEngineError(err.timedOut ? HEYGEM_MSG.timeout : HEYGEM_MSG.unreachable, true);
      if (err instanceof ProviderDownloadTooLarge) throw new LipSyncEngineError(HEYGEM_MSG.resultTooLarge);
      throw err;
    }
    if (got.status === 404 || got.status === 403) throw new LipSyncEngineError(HEYGEM_MSG.resultMissing, false, `HTTP ${got.status} for ${url}`);
    if (got.status >= 500) throw new LipSyncEngineError(HEYGEM_MSG.unavailable, true, `HTTP ${got.status} for the result`);
    if (got.status < 200 || got.status >= 300) throw bad(`HTTP ${got.status} for the result`);
    return got.bytes;
  }

  /** From the shared volume: the path as given, else its file name (builds differ in how much of it they include). */
  private async copyResult(result: string, output: string): Promise<number> {
    const parts = this.segments(result);
    for (const candidate of [path.join(this.resultDir, ...parts), path.join(this.resultDir, parts[parts.length - 1]!)]) {
      const stat = await fs.promises.stat(candidate).catch(() => undefined);
      if (!stat?.isFile()) continue;
      if (stat.size > MAX_RESULT_BYTES) throw new LipSyncEngineError(HEYGEM_MSG.resultTooLarge);
      await pipeline(fs.createReadStream(candidate), fs.createWriteStream(output));
      return stat.size;
    }
    throw new LipSyncEngineError(HEYGEM_MSG.resultMissing, false, `${result} not found under the result directory`);
  }
}

/** An ISO media file opens with its `ftyp` box; an error page or a truncated write does not. */
async function startsLikeMp4(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    return bytesRead === 8 && head.subarray(4, 8).toString('latin1') === 'ftyp';
  } finally {
    await handle.close();
  }
}
