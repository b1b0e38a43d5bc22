/** One-click creation's calls: render a storyboard (a work), the projects (drafts) and their history, the storyboard proposal. */
import { API, LIMITS, MSG, WorkStatus, estimateSeconds, proposeStoryboard } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { ApiError, found } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import { OneclickRepository, projectStatus } from './oneclick.repository';
import { draftSceneCount, oneclickEngines, scenePicture, submitOneclick, writeScript } from './oneclick.service';

export function registerOneclickRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const projects = new OneclickRepository(db);

  router.handle(API.oneclick.create, async ({ params, user }) => ({ id: await submitOneclick(ctx, user.id, params) }));

  router.handle(API.oneclick.history, async ({ params, user }) => {
    const { limit, offset } = requestedPage(params, LIMITS.oneclick.historyPageSize, 100);
    const rows = await projects.list(user.id, limit, offset);
    return {
      list: rows.map((p) => {
        const status = projectStatus(p);
        return {
          id: p.id,
          name: p.name,
          work_id: p.work_id ?? 0,
          status,
          url: status === WorkStatus.Success && p.video_key ? urls.url(p.video_key) : '',
          cover: p.cover_key ? urls.url(p.cover_key) : '',
          duration: Number(p.duration ?? 0),
          scenes: Number(p.scene_count),
          ...(status === WorkStatus.Failed ? { reason: p.reason ?? '' } : {}),
          create_time: formatDateTime(p.created_at),
        };
      }),
      total: await projects.count(user.id),
    };
  });

  router.handle(API.oneclick.saveDraft, async ({ params, user }) => {
    const id = await projects.save(user.id, { id: params.id, name: params.name, draft: params.draft, sceneCount: draftSceneCount(params.draft) });
    if (id === undefined) throw new ApiError(MSG.oneclickProjectMissing);
    return { id };
  });

  router.handle(API.oneclick.draft, async ({ params, user }) => {
    const p = found(await projects.get(params.id, user.id), MSG.oneclickProjectMissing);
    return { id: p.id, name: p.name, draft: p.draft, work_id: p.work_id ?? 0, status: projectStatus(p) };
  });

  router.handle(API.oneclick.remove, async ({ params, user }) => {
    found(await projects.remove(params.id, user.id), MSG.oneclickProjectMissing);
    return {};
  });

  router.handle(API.oneclick.storyboard, async ({ params }) => {
    const scenes = proposeStoryboard(params.script, params.rate);
    return { scenes, seconds: scenes.reduce((sum, s) => sum + estimateSeconds(s.text, params.rate), 0) };
  });

  router.handle(API.oneclick.engines, async () => ({ ...(await oneclickEngines(ctx)), chat_credits: LIMITS.chatAnswerCredits, image_credits: LIMITS.imageCreditsEach }));
  router.handle(API.oneclick.script, ({ params, user }) => writeScript(ctx, user.id, params));
  router.handle(API.oneclick.picture, ({ params, user }) => scenePicture(ctx, user.id, params));
}
