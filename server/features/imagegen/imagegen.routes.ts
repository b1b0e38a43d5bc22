/** Text-to-image calls (part 2 §7): generate, records, delete, suggested prompts, save to material; the operator's engine and prompts. */
import { API, LIMITS, MSG } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { ApiError } from '../../infra/http';
import { deleteObjects } from '../../infra/user-files';
import { IMAGE_DEFAULTS, IMAGE_SETTING_KEYS } from '../../engines/image';
import { saveCopyToMaterial } from '../material';
import { ImageGenRepository } from './imagegen.repository';
import { imageEngineConfig, recordView, submitImageGeneration } from './imagegen.service';

/** A saved picture is named after the start of its prompt. */
const MATERIAL_NAME_CHARS = 15;

export function registerImageGenRoutes(ctx: FeatureContext): void {
  const { router, db, settings } = ctx;
  const records = new ImageGenRepository(db);

  router.handle(API.imagegen.engine, async () => ({ configured: ((await imageEngineConfig(ctx)) ? 1 : 0) as 0 | 1 }));

  router.handle(API.imagegen.create, async ({ params, user }) => ({ id: await submitImageGeneration(ctx, user.id, params) }));

  router.handle(API.imagegen.list, async ({ params, user }) => {
    const { rows, total } = await records.list(user.id, requestedPage(params, LIMITS.historyLimit));
    return { list: rows.map((r) => recordView(ctx, r)), total };
  });

  router.handle(API.imagegen.remove, async ({ params, user }) => {
    const removed = await records.removeFinished(params.id, user.id);
    if (!removed) throw new ApiError((await records.own(params.id, user.id)) ? MSG.imageRecordBusy : MSG.imageRecordMissing);
    await deleteObjects(ctx, removed.imageKeys);
    return {};
  });

  router.handle(API.imagegen.prompts, async () => ({ list: await records.prompts() }));

  // The material gets its own copy: deleting the record (or the material) leaves the other whole.
  router.handle(API.imagegen.save, async ({ params, user }) => {
    const record = await records.own(params.id, user.id);
    if (!record) throw new ApiError(MSG.imageRecordMissing);
    const key = record.image_keys[params.index];
    if (!key) throw new ApiError(MSG.imageNotReady);
    const ext = key.split('.').pop()!;
    const name = [...record.prompt.replace(/\s+/g, ' ').trim()].slice(0, MATERIAL_NAME_CHARS).join('') || LIMITS.defaultWorkName;
    return { id: await saveCopyToMaterial(ctx, user.id, { key, ext, kind: 'image' }, { type: 'image', name, origin: 'text_to_image' }) };
  });

  router.handle(API.imagegen.engineSet, async ({ params }) => {
    const current = await settings.all();
    const apiKey = params.api_key?.trim() || current[IMAGE_SETTING_KEYS.apiKey] || '';
    const secretKey = params.secret_key?.trim() || current[IMAGE_SETTING_KEYS.secretKey] || '';
    if (params.engine !== 'none' && !apiKey) throw new ApiError('启用图片生成引擎需要 --api-key');
    if (params.engine === 'kling' && !secretKey) throw new ApiError('可灵引擎需要 --api-key <AccessKey> 和 --secret-key <SecretKey>');
    // A new engine starts from its own defaults unless the operator names others.
    const switching = params.engine !== current[IMAGE_SETTING_KEYS.engine];
    const pick = (given: string | undefined, key: string) => given?.trim() || (switching ? '' : current[key] || '');
    const changes: Record<string, string> = {
      [IMAGE_SETTING_KEYS.engine]: params.engine,
      [IMAGE_SETTING_KEYS.baseUrl]: pick(params.base_url, IMAGE_SETTING_KEYS.baseUrl),
      [IMAGE_SETTING_KEYS.model]: pick(params.model, IMAGE_SETTING_KEYS.model),
      [IMAGE_SETTING_KEYS.apiKey]: apiKey,
      [IMAGE_SETTING_KEYS.secretKey]: secretKey,
    };
    if (params.timeout_ms !== undefined) changes[IMAGE_SETTING_KEYS.timeoutMs] = String(params.timeout_ms);
    await settings.set(changes);
    const config = await imageEngineConfig(ctx);
    const defaults = params.engine === 'none' ? { baseUrl: '', model: '' } : IMAGE_DEFAULTS[params.engine];
    return { engine: params.engine, base_url: config?.baseUrl ?? defaults.baseUrl, model: config?.model ?? defaults.model, configured: config !== null };
  });

  router.handle(API.imagegen.promptAdd, async ({ params }) => ({ id: await records.addPrompt(params.content) }));
}
