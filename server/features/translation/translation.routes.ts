/** The translation calls (part 2 §7): languages (with how the words are read: speech recognition, else the captions offline; and the prices), the list, submit, delete. */
import { API, TRANSLATE_CREDITS_PER_SECOND, TRANSLATE_LANGUAGES } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { formatDateTime } from '../../infra/time';
import { TranslationRepository, type TranslationRow } from './translation.repository';
import { removeTranslation, submitTranslation, wordReader } from './translation.service';

export function registerTranslationRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const records = new TranslationRepository(db);
  const url = (key: string) => (key ? urls.url(key) : '');

  const view = (r: TranslationRow) => ({
    id: r.id,
    name: r.name,
    url: url(r.video_key),
    cover: url(r.cover_key),
    srt: url(r.video_key ? r.srt_key : ''),
    status: Number(r.status),
    reason: r.reason || undefined,
    voice: r.voice || undefined,
    mode: Number(r.mode),
    source_lang: r.source_lang,
    target_lang: r.target_lang,
    duration: Number(r.duration) || Number(r.source_seconds),
    credits: Number(r.charged) || Number(r.reserved),
    create_time: formatDateTime(r.created_at),
  });

  router.handle(API.translation.languages, async () => {
    const reader = await wordReader(ctx);
    return {
      list: [...TRANSLATE_LANGUAGES],
      ready: reader !== '',
      reader,
      prices: Object.fromEntries(Object.entries(TRANSLATE_CREDITS_PER_SECOND).map(([mode, price]) => [mode, price])),
    };
  });

  router.handle(API.translation.list, async ({ params, user }) => {
    const { rows, total, generate } = await records.list(user.id, requestedPage(params, 20, 100));
    return { list: rows.map(view), total, generate };
  });

  router.handle(API.translation.submit, async ({ params, user }) => ({
    id: await submitTranslation(ctx, user.id, { fileId: params.file_id, sourceLang: params.source_lang, targetLang: params.target_lang, mode: params.mode }),
  }));

  router.handle(API.translation.remove, async ({ params, user }) => {
    await removeTranslation(ctx, user.id, params.id);
    return {};
  });
}
