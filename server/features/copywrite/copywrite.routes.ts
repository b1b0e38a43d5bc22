/** The copy extraction calls: submit, the records, delete, edit, save to the material library, and the 二创 stream. */
import { API, CopywriteStatus, LIMITS, MSG, type CopyRecord } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { handleEventStream } from '../../infra/event-stream';
import { ApiError, found } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import { MaterialRepository } from '../material';
import { CopywriteRepository, type CopyRow } from './copywrite.repository';
import { streamRewrite } from './copywrite.rewrite';
import { freeLeftToday, removeCopy, submitCopy } from './copywrite.service';

/** A saved copy is named after its start. */
const materialName = (text: string) => [...text.replace(/\s+/g, '')].slice(0, LIMITS.analyseNameMaxChars).join('') || LIMITS.defaultWorkName;

export function registerCopywriteRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const records = new CopywriteRepository(db);

  const view = (r: CopyRow): CopyRecord => ({
    id: r.id,
    status: Number(r.status),
    text: r.text,
    segments: r.segments ?? [],
    source: r.source,
    cover: r.cover_key ? urls.url(r.cover_key) : '',
    duration: Number(r.duration),
    link: r.link,
    title: r.title,
    ...(r.reason ? { reason: r.reason } : {}),
    create_time: formatDateTime(r.created_at),
  });

  router.handle(API.copywrite.submit, async ({ params, user }) => ({
    id: await submitCopy(ctx, user.id, { type: params.type, link: params.link, fileId: params.file_id }),
  }));

  router.handle(API.copywrite.list, async ({ params, user }) => {
    const { rows, total } = await records.list(user.id, { ...requestedPage(params, LIMITS.copywrite.pageSize, 100), id: params.id });
    return { list: rows.map(view), total, num: await freeLeftToday(ctx, user.id) };
  });

  router.handle(API.copywrite.remove, async ({ params, user }) => {
    found(await removeCopy(ctx, user.id, params.id), MSG.copyRecordMissing);
    return {};
  });

  router.handle(API.copywrite.edit, async ({ params, user }) => {
    found(await records.editText(params.id, user.id, params.text), MSG.copyRecordMissing);
    return {};
  });

  router.handle(API.copywrite.save, async ({ params, user }) => {
    const record = await records.own(params.id, user.id);
    if (!record || Number(record.status) !== CopywriteStatus.Done) throw new ApiError(MSG.copyRecordMissing);
    const text = params.text?.trim() || record.text;
    return { id: await new MaterialRepository(db).addText(user.id, { name: materialName(text), origin: 'copywrite', text }) };
  });

  // The rewrite is not an envelope call: a GET event stream with the token in the query, as the copy chat's answers.
  handleEventStream(ctx, API.copywrite.rewrite, 'rewrite stream failed', async (user, { id, style, instruction }, send, signal, log) =>
    streamRewrite(ctx, user.id, { id, style, instruction }, send, signal, log),
  );
}
