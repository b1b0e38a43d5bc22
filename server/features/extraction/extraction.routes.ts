/** The extraction calls (part 2 §7): video and audio records by status, submit a link or an uploaded video, save to assets. */
import { ANALYSE_STATUS_NAMES, API } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { formatDateTime } from '../../infra/time';
import { ExtractionType, ExtractionRepository, type ExtractionTypeValue, type ExtractionRow } from './extraction.repository';
import { freeLeftToday, linksParsable, saveToMaterial, submitExtraction } from './extraction.service';

export function registerExtractionRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const records = new ExtractionRepository(db);

  const view = (r: ExtractionRow) => ({
    id: r.id,
    status: Number(r.status),
    status_name: ANALYSE_STATUS_NAMES[Number(r.status)] ?? '',
    cover: r.cover_key ? urls.url(r.cover_key) : '',
    desc: r.description,
    size: Number(r.size),
    url: r.media_key ? urls.url(r.media_key) : '',
    reason: r.reason || undefined,
    link: r.link || undefined,
    duration: Number(r.duration) || undefined,
    create_time: formatDateTime(r.created_at),
  });

  const list = async (kind: ExtractionTypeValue, userId: number, params: { page: number; limit: number; status?: number }) => {
    const { rows, total } = await records.list(userId, kind, { status: params.status, ...requestedPage(params, 20, 100) });
    return { list: rows.map(view), num: await freeLeftToday(ctx, userId, kind), total, parse_ready: await linksParsable(ctx) };
  };

  router.handle(API.extraction.videoList, ({ params, user }) => list(ExtractionType.Video, user.id, params));
  router.handle(API.extraction.audioList, ({ params, user }) => list(ExtractionType.Audio, user.id, params));

  router.handle(API.extraction.videoParse, async ({ params, user }) => ({
    id: await submitExtraction(ctx, user.id, { kind: ExtractionType.Video, text: params.link }),
  }));
  router.handle(API.extraction.audioExtract, async ({ params, user }) => ({
    id: await submitExtraction(ctx, user.id, params.type === 2 ? { kind: ExtractionType.Audio, fileId: params.file_id } : { kind: ExtractionType.Audio, text: params.link }),
  }));

  router.handle(API.extraction.saveToMaterial, async ({ params, user }) => ({
    id: await saveToMaterial(ctx, user.id, { rid: params.rid, type: params.type as 'video' | 'audio', name: params.name }),
  }));
}
