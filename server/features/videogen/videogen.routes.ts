/** Text to video and image to video calls (part 2 §7): generate, records, delete, word bank, recommendations, presets; the operator's seeding. */
import { API, LIMITS, MSG } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { found } from '../../infra/http';
import { deleteObjects, publishLocalFile } from '../../infra/user-files';
import { VideoGenRepository } from './videogen.repository';
import { currentEngines, presetTitle, sampleImageUrl, submitVideo, videoRecordView } from './videogen.service';

export function registerVideoGenRoutes(ctx: FeatureContext): void {
  const { router, db } = ctx;
  const repo = new VideoGenRepository(db);

  router.handle(API.videogen.engine, () => currentEngines(ctx));

  router.handle(API.videogen.create, async ({ params, user }) => ({ id: await submitVideo(ctx, user.id, params) }));

  router.handle(API.videogen.list, async ({ params, user }) => {
    const { rows, total } = await repo.list(user.id, params.type, requestedPage(params, LIMITS.historyLimit));
    return { list: rows.map((v) => videoRecordView(ctx, v)), total };
  });

  router.handle(API.videogen.remove, async ({ params, user }) => {
    const keys = found(await repo.remove(user.id, params.id), MSG.videoRecordNotFound);
    await deleteObjects(ctx, keys);
    return {};
  });

  router.handle(API.videogen.prompts, async () => ({ list: await repo.wordBank() }));

  router.handle(API.videogen.recommend, async ({ params }) => ({
    list: (await repo.recommendations(params.type)).map((r) => ({ id: r.id, content: r.content, ...(r.image ? { image: sampleImageUrl(ctx, r.image) } : {}) })),
  }));

  router.handle(API.videogen.presets, async ({ params, user }) => ({ list: await repo.presets(user.id, params.keyword?.trim() ?? '') }));

  router.handle(API.videogen.presetSave, async ({ params, user }) => {
    const title = presetTitle(params.title, params.content);
    if (params.id === undefined) return { id: await repo.addPreset(user.id, title, params.content) };
    found(await repo.updatePreset(user.id, params.id, title, params.content), MSG.presetNotFound);
    return { id: params.id };
  });

  router.handle(API.videogen.presetRemove, async ({ params, user }) => {
    found(await repo.removePreset(user.id, params.id), MSG.presetNotFound);
    return {};
  });

  router.handle(API.videogen.promptsSet, async ({ params }) => {
    await db.tx((q) => new VideoGenRepository(q).replaceWordBank(params.list));
    return { groups: params.list.length, words: params.list.reduce((n, g) => n + g.list.length, 0) };
  });

  router.handle(API.videogen.recommendSet, async ({ params }) => {
    // A sample picture named as a local file (the operator's machine is the server's) is published first.
    const list: { content: string; image: string }[] = [];
    for (const r of params.list) {
      const image = r.image && !/^https?:\/\//.test(r.image) ? await publishLocalFile(ctx, r.image, 'image') : r.image;
      list.push({ content: r.content, image });
    }
    await db.tx((q) => new VideoGenRepository(q).replaceRecommendations(params.type, list));
    return { count: list.length };
  });
}
