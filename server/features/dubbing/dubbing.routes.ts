/** The dubbing calls: create, the history, rename, delete, save to the material library, and the channels' prices. */
import { API, DubbingStatus, LIMITS, MSG, captionText, type DubbingRecord } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { ApiError, WithMessage, found } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import { MaterialRepository, saveCopyToMaterial } from '../material';
import { DubbingRepository, type DubbingRow } from './dubbing.repository';
import { dubbingPrices, removeDubbing, submitDubbing } from './dubbing.service';
import { dubbingScript } from './dubbing.timeline';

/** Each role once, as 名称·声音 (or the voice alone), in the order they first speak. */
function rolesOf(r: DubbingRow): string[] {
  return [...new Set(r.lines.map((l) => (l.role ? `${l.role}·${l.voice_name}` : l.voice_name)))];
}

export function registerDubbingRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const records = new DubbingRepository(db);

  const view = (r: DubbingRow): DubbingRecord => {
    const status = Number(r.status);
    const done = status === DubbingStatus.Done;
    return {
      id: r.id,
      name: r.name,
      status,
      url: done && r.audio_key ? urls.url(r.audio_key) : '',
      srt: done && r.srt_key ? urls.url(r.srt_key) : '',
      duration: done ? Number(r.duration) : 0,
      credits: status === DubbingStatus.Failed ? 0 : done ? Number(r.charged) : Number(r.reserved),
      ...(r.reason ? { reason: r.reason } : {}),
      create_time: formatDateTime(r.created_at),
      roles: rolesOf(r),
      chars: Number(r.chars),
      lines: r.lines.length,
      cues: done ? (r.cues ?? []).map((c, i) => ({ start: c.start, end: c.end, role: r.lines[i]?.role ?? '', text: captionText(r.lines[i]?.text ?? '') })) : [],
      bgm: r.bgm_file_id === null ? 0 : 1,
    };
  };

  router.handle(API.dubbing.prices, async () => ({ list: await dubbingPrices(ctx) }));

  router.handle(API.dubbing.create, async ({ params, user }) => ({ id: await submitDubbing(ctx, user.id, params) }));

  router.handle(API.dubbing.list, async ({ params, user }) => {
    const { rows, total, generate } = await records.list(user.id, { ...requestedPage(params, LIMITS.dubbing.historyPageSize), id: params.id });
    return { list: rows.map(view), total, generate };
  });

  router.handle(API.dubbing.rename, async ({ params, user }) => {
    found(await records.rename(params.id, user.id, params.name), MSG.dubRecordMissing);
    return new WithMessage({}, MSG.renameSucceeded);
  });

  router.handle(API.dubbing.remove, async ({ params, user }) => {
    await removeDubbing(ctx, user.id, params.id);
    return {};
  });

  // The library gets its own copy of the mp3: deleting the dub (or the material) leaves the other whole.
  router.handle(API.dubbing.save, async ({ params, user }) => {
    const record = found(await records.own(params.id, user.id), MSG.dubRecordMissing);
    if (Number(record.status) !== DubbingStatus.Done || !record.audio_key) throw new ApiError(MSG.dubNotReady);
    const audioId = await saveCopyToMaterial(ctx, user.id, { key: record.audio_key, ext: 'mp3', kind: 'voice', duration: Number(record.duration) }, { type: 'audio', name: record.name, origin: 'dubbing' });
    const script = dubbingScript(record.lines).slice(0, LIMITS.textMaterialMaxChars);
    const textId = await new MaterialRepository(db).addText(user.id, { name: record.name, origin: 'dubbing', text: script });
    return new WithMessage({ audio_id: audioId, text_id: textId }, MSG.saveSucceeded);
  });
}
