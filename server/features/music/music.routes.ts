/** The music calls: generate, my tasks, rename, delete, save to material, background music, the engine, the library; the operator's publish and engine settings. */
import path from 'node:path';
import { API, LIMITS, MSG, MusicStatus, type MusicTrack } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { ApiError, WithMessage, found } from '../../infra/http';
import { MUSIC_SETTING_KEYS } from '../../engines/music';
import { saveCopyToMaterial } from '../material';
import { MusicRepository } from './music.repository';
import { engineState, musicConfig, musicView, publishTrack, removeMusic, submitMusic } from './music.service';

export function registerMusicRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const repo = new MusicRepository(db);

  router.handle(API.music.engine, () => engineState(ctx));

  router.handle(API.music.create, async ({ params, user }) => ({ id: await submitMusic(ctx, user.id, params) }));

  router.handle(API.music.myTask, async ({ params, user }) => {
    const { rows, total, generate } = await repo.list(user.id, requestedPage(params, LIMITS.music.historyPageSize));
    return { list: rows.map((r) => musicView(ctx, r)), total, generate };
  });

  router.handle(API.music.rename, async ({ params, user }) => {
    found(await repo.rename(params.id, user.id, params.name), MSG.musicTaskMissing);
    return new WithMessage({}, MSG.renameSucceeded);
  });

  router.handle(API.music.remove, async ({ params, user }) => {
    await removeMusic(ctx, user.id, params.id);
    return {};
  });

  // The material library gets its own copy: deleting the task (or the material) leaves the other whole.
  router.handle(API.music.save, async ({ params, user }) => {
    const record = found(await repo.own(params.id, user.id), MSG.musicTaskMissing);
    if (Number(record.status) !== MusicStatus.Done || !record.audio_key) throw new ApiError(MSG.musicNotReady);
    const ext = path.extname(record.audio_key).slice(1);
    const id = await saveCopyToMaterial(ctx, user.id, { key: record.audio_key, ext, kind: 'voice', duration: Number(record.duration) }, { type: 'audio', name: record.title, origin: 'music' });
    return new WithMessage({ id }, MSG.saveSucceeded);
  });

  router.handle(API.music.background, async ({ params, user }) => {
    found(await repo.own(params.id, user.id), MSG.musicTaskMissing);
    found(await repo.setBackground(params.id, user.id, params.background === 1), MSG.musicNotReady);
    return new WithMessage({ background: params.background }, params.background === 1 ? MSG.musicBackgroundOn : MSG.musicBackgroundOff);
  });

  router.handle(API.music.library, async ({ user }) => {
    const library: MusicTrack[] = (await repo.library()).map((t) => ({
      id: `lib-${t.id}`, name: t.name, mood: t.mood, url: urls.url(t.audio_key), duration: Math.round(Number(t.duration) * 100) / 100, source: 'library',
    }));
    const mine: MusicTrack[] = (await repo.backgrounds(user.id)).map((t) => ({
      id: `my-${t.id}`, name: t.title, mood: '', url: urls.url(t.audio_key), duration: Math.round(Number(t.duration) * 100) / 100, source: 'mine',
    }));
    return { list: [...library, ...mine] };
  });

  router.handle(API.music.publish, ({ params }) => publishTrack(ctx, params));

  router.handle(API.music.engineSet, async ({ params }) => {
    const settings: Record<string, string> = { [MUSIC_SETTING_KEYS.engine]: params.engine };
    if (params.api_key !== undefined) settings[MUSIC_SETTING_KEYS.apiKey] = params.api_key;
    if (params.base_url !== undefined) {
      if (params.base_url && !/^https?:\/\/./.test(params.base_url)) throw new ApiError('--base-url 需为 http(s) 地址');
      settings[MUSIC_SETTING_KEYS.baseUrl] = params.base_url;
    }
    if (params.model !== undefined) settings[MUSIC_SETTING_KEYS.model] = params.model;
    await ctx.settings.set(settings);
    if (params.engine === 'none') return { engine: 'none' as const, key: 'none' as const };
    const { resolved } = await musicConfig(ctx);
    if (!resolved) {
      await ctx.settings.set({ [MUSIC_SETTING_KEYS.engine]: 'none' });
      throw new ApiError('MiniMax 音乐生成需要密钥：用 --api-key 指定，或先用 channel set mm 配置 MiniMax 声音渠道的密钥');
    }
    return { engine: 'minimax' as const, key: resolved.key };
  });
}
