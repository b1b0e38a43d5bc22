/**
 * Text to image (part 2 §2.8, §4, §9): a submit pays 10 credits per asked picture and queues the record; the job asks
 * the operator's image engine, copies every picture into the user's storage at once (provider links expire within
 * hours; the copies count in the user's space), and refunds the pictures not made — all of them when none came.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ImagegenStatus, LIMITS, MSG, type ImageRecord } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import type { JobRun } from '../../infra/queue';
import { runPaidJob } from '../../infra/paid-job';
import { sniffFile } from '../../infra/media-files';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { formatDateTime } from '../../infra/time';
import { downloadWithDeadline, ImageEngineError, imageEngineFor, ProviderDownloadTooLarge, ProviderUnreachable, resolveImageConfig, type ImageEngineConfig, type ImageRatio, type MadeImage } from '../../engines/image';
import { refundIn, spendOrRefuse } from '../credits';
import { ImageGenRepository, type ImageRecordRow } from './imagegen.repository';
import { fetchObject } from '../../infra/storage';

/** A provider picture larger than this is not one we keep. */
const MAX_IMAGE_BYTES = 30 * 1024 * 1024;
const IMAGE_EXTS = new Set(['png', 'jpg', 'webp']);

export async function imageEngineConfig(ctx: FeatureContext): Promise<ImageEngineConfig | null> {
  return resolveImageConfig(await ctx.settings.all());
}

/** Pays for the asked pictures and queues the record; refused without an engine, a usable reference, or the credits. */
export async function submitImageGeneration(ctx: FeatureContext, userId: number, input: { text: string; image?: string; ratio: string; num: number }): Promise<number> {
  if (!(await imageEngineConfig(ctx))) throw new ApiError(MSG.imageEngineMissing);
  let referenceKey = '';
  if (input.image) {
    const key = ctx.urls.keyOf(input.image);
    if (!key || !(await new ImageGenRepository(ctx.db).ownImageKey(userId, key))) throw new ApiError(MSG.imageReferenceMissing);
    referenceKey = key;
  }
  return await ctx.db.tx(async (q) => {
    const records = new ImageGenRepository(q);
    const id = await records.create({ userId, prompt: input.text, ratio: input.ratio, asked: input.num, referenceKey });
    const spend = await spendOrRefuse(q, { userId, amount: input.num * LIMITS.imageCreditsEach, action: '文生图', key: `image-generate:${id}` });
    await records.setSpend(id, spend.entryId);
    await ctx.queue.send('imagegen-run', { recordId: id }, {}, q);
    return id;
  });
}

/** What the history list shows of a record (fresh signed URLs each time). */
export function recordView(ctx: FeatureContext, r: ImageRecordRow): ImageRecord {
  return {
    id: r.id,
    status: Number(r.status),
    url: r.image_keys.map((key) => ctx.urls.url(key)),
    text: r.prompt,
    ratio: r.ratio,
    num: Number(r.asked),
    image: r.reference_key ? ctx.urls.url(r.reference_key) : '',
    ...(r.reason ? { reason: r.reason } : {}),
    create_time: formatDateTime(r.created_at),
  };
}

/**
 * The job (through the paid-job runner): a finished record is left alone; two runs racing finish it once and the
 * loser's copies are deleted. A transient engine failure is retried by the queue while nothing was made; the last
 * attempt fails the record with the engine's reason and refunds it.
 */
export async function runImageGeneration(ctx: FeatureContext, recordId: number, job: JobRun, log: FastifyBaseLogger): Promise<void> {
  await runPaidJob(job, {
    load: () => new ImageGenRepository(ctx.db).get(recordId),
    isOpen: (record) => Number(record.status) === ImagegenStatus.Pending,
    run: (record) => generate(ctx, record, job, log),
    fail: (record, reason) => finish(ctx, record, [], reason),
    permanent: (err) => (err instanceof ImageEngineError && !err.transient ? err.message : undefined),
    lastReason: (err) => (err instanceof ImageEngineError ? err.message : MSG.imageEngineDown),
  });
}

async function generate(ctx: FeatureContext, record: ImageRecordRow, job: JobRun, log: FastifyBaseLogger): Promise<void> {
  const config = await imageEngineConfig(ctx);
  if (!config) return finish(ctx, record, [], MSG.imageEngineMissing);

  await withWorkDir(ctx.config.dataDir, async (dir) => {
    let reference: { bytes: Buffer; ext: 'png' | 'jpg' } | undefined;
    if (record.reference_key) {
      const file = path.join(dir, 'reference');
      try {
        await fetchObject(ctx.storage, record.reference_key, file);
      } catch {
        return finish(ctx, record, [], MSG.imageReferenceMissing);
      }
      const ext = sniffFile(file);
      if (ext !== 'png' && ext !== 'jpg') return finish(ctx, record, [], MSG.imageReferenceMissing);
      reference = { bytes: await fs.promises.readFile(file), ext };
    }

    let made: MadeImage[];
    let shortfall: string | undefined;
    try {
      const result = await imageEngineFor(config).generate({ prompt: record.prompt, ratio: record.ratio as ImageRatio, count: Number(record.asked), reference });
      made = result.images;
      shortfall = result.shortfall?.message;
      if (result.shortfall) log.warn({ recordId: record.id, detail: result.shortfall.detail }, 'image generation made fewer pictures than asked');
    } catch (err) {
      // The provider's own words stay in the log; the record gets the engine's Chinese reason (the runner decides when).
      if (err instanceof ImageEngineError) log.warn({ recordId: record.id, detail: err.detail, transient: err.transient, attempt: job.retryCount }, 'image engine refused');
      throw err;
    }

    const keys: string[] = [];
    for (const [i, image] of made.entries()) {
      const stored = await copyIn(ctx, record.user_id, image, path.join(dir, `made-${i}`));
      if (stored) keys.push(stored);
      else shortfall ??= MSG.imageEngineBadReply;
    }
    await finish(ctx, record, keys, keys.length ? '' : (shortfall ?? MSG.imageEngineBadReply));
  });
}

/** One made picture into the user's storage; undefined when it is not a picture we can keep (or its link failed). */
async function copyIn(ctx: FeatureContext, userId: number, image: MadeImage, file: string): Promise<string | undefined> {
  if ('bytes' in image) {
    if (image.bytes.length > MAX_IMAGE_BYTES) return undefined;
    await fs.promises.writeFile(file, image.bytes);
  } else {
    try {
      const got = await downloadWithDeadline(image.url, file, 60_000, MAX_IMAGE_BYTES);
      if (got.status < 200 || got.status >= 300) return undefined;
    } catch (err) {
      if (err instanceof ProviderUnreachable || err instanceof ProviderDownloadTooLarge) return undefined;
      throw err;
    }
  }
  const ext = sniffFile(file);
  if (!ext || !IMAGE_EXTS.has(ext)) return undefined;
  return (await storeUserFile(ctx, userId, file, ext, 'image')).key;
}

/** Ends the record once: success with what was made, else failed; the pictures not made are refunded. */
async function finish(ctx: FeatureContext, record: ImageRecordRow, keys: string[], failure: string): Promise<void> {
  const asked = Number(record.asked);
  const ended = await ctx.db.tx(async (q) => {
    const records = new ImageGenRepository(q);
    if (!(await records.lockPending(record.id))) return false;
    const missing = asked - keys.length;
    if (missing > 0 && record.spend_entry_id !== null) {
      await refundIn(q, {
        userId: record.user_id, spendEntryId: record.spend_entry_id, amount: missing * LIMITS.imageCreditsEach, action: '文生图失败退回', key: `image-generate:${record.id}:refund`,
      });
    }
    const reason = keys.length === 0 ? failure : missing > 0 ? MSG.imagePartlyMade(keys.length, asked) : '';
    await records.finish(record.id, { status: keys.length ? ImagegenStatus.Success : ImagegenStatus.Failed, imageKeys: keys, reason });
    return true;
  });
  // Another run finished it first: this run's copies belong to nothing.
  if (!ended && keys.length) await deleteObjects(ctx, keys);
}
