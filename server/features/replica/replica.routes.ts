/** The super replica calls: personas, products, video analyses, 仿写, account analyses, topics, scripts. */
import { API, LIMITS, MSG, REPLICA_VIDEO_CREDITS, type Persona, type Product, type ReplicaAccount, type ReplicaScript, type ReplicaVideo } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import { resolveChatConfig } from '../../engines/chat';
import { parserFromSettings } from '../../engines/parse';
import { accountAsk, generateAsk, mimicAsk, readAccountAnalysis, readTopics, readVariants, topicAsk } from './replica.prompts';
import { ReplicaRepository, type AccountRow, type PersonaRow, type ProductRow, type ScriptRow, type VideoRow } from './replica.repository';
import { accountSource, ownImage, ownPersona, ownProduct, paidAnswer, removeVideo, submitVideo } from './replica.service';

const R = LIMITS.replica;

export function registerReplicaRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const repo = new ReplicaRepository(db);
  const paging = (p: { page: number; limit: number }) => {
    const limit = p.limit > 0 ? Math.min(p.limit, 100) : R.pageSize;
    return { limit, offset: (Math.max(p.page, 1) - 1) * limit };
  };
  const time = (r: { created_at: Date }) => formatDateTime(r.created_at);

  const personaView = (r: PersonaRow): Persona => ({
    id: r.id, name: r.name, industry: r.industry, audience: r.audience, tone: r.tone, selling_points: r.selling_points,
    catchphrases: r.catchphrases, taboo: r.taboo, create_time: time(r),
  });
  const productView = (r: ProductRow): Product => ({
    id: r.id, name: r.name, category: r.category, price: Number(r.price), selling_points: r.selling_points, audience: r.audience,
    scenes: r.scenes, image: r.image_key ? urls.url(r.image_key) : '', image_id: r.image_key ? (r.image_file_id ?? 0) : 0, create_time: time(r),
  });
  const videoView = (r: VideoRow): ReplicaVideo => ({
    id: r.id, status: Number(r.status), type: Number(r.way), link: r.link, title: r.title, text: r.text, segments: r.segments ?? [],
    duration: Number(r.duration), analysis: r.analysis, cover: ctx.urls.url(r.cover_key), ...(r.reason ? { reason: r.reason } : {}), create_time: time(r),
  });
  const accountView = (r: AccountRow): ReplicaAccount => ({ id: r.id, description: r.description, analysis: r.analysis, create_time: time(r) });
  const scriptView = (r: ScriptRow): ReplicaScript => ({
    id: r.id, kind: r.kind, analysis_id: r.analysis_id ?? 0, persona_name: r.persona_name, product_name: r.product_name, topic: r.topic,
    variants: r.variants, create_time: time(r),
  });
  const removed = (ok: boolean, missing: string) => {
    if (!ok) throw new ApiError(missing);
    return {};
  };
  /** A persona or product saved: record `id` updated when given (missing: not the user's), else one added within its limit. */
  const saved = async (id: number | undefined, update: (id: number) => Promise<boolean>, add: () => Promise<number | undefined>, say: { missing: string; full: string }) => {
    if (id !== undefined) {
      if (!(await update(id))) throw new ApiError(say.missing);
      return { id };
    }
    const added = await add();
    if (added === undefined) throw new ApiError(say.full);
    return { id: added };
  };

  router.handle(API.replica.engine, async () => ({
    ready: resolveChatConfig(ctx.config.chat, await ctx.settings.all()) !== null,
    profiles: !!parserFromSettings(await ctx.settings.all())?.readProfile,
    answer_credits: LIMITS.chatAnswerCredits,
    video_credits: REPLICA_VIDEO_CREDITS,
  }));

  // ---- personas and products: plain records, no engine needed
  router.handle(API.replica.personas, async ({ params, user }) => {
    const { rows, total } = await repo.personas(user.id, paging(params));
    return { list: rows.map(personaView), total };
  });
  router.handle(API.replica.personaSave, async ({ params: { id, ...persona }, user }) =>
    saved(
      id,
      (own) => repo.ownPersonas.update(own, user.id, persona),
      () => db.tx((q) => new ReplicaRepository(q).ownPersonas.add(user.id, persona, R.maxPersonas)),
      { missing: MSG.replicaPersonaMissing, full: MSG.replicaPersonasFull(R.maxPersonas) },
    ));
  router.handle(API.replica.personaRemove, async ({ params, user }) => removed(await repo.ownPersonas.remove(params.id, user.id), MSG.replicaPersonaMissing));

  router.handle(API.replica.products, async ({ params, user }) => {
    const { rows, total } = await repo.products(user.id, paging(params));
    return { list: rows.map(productView), total };
  });
  router.handle(API.replica.productSave, async ({ params: { id, image, ...fields }, user }) => {
    const product = { ...fields, image_file_id: await ownImage(ctx, user.id, image) };
    return saved(
      id,
      (own) => repo.ownProducts.update(own, user.id, product),
      () => db.tx((q) => new ReplicaRepository(q).ownProducts.add(user.id, product, R.maxProducts)),
      { missing: MSG.replicaProductMissing, full: MSG.replicaProductsFull(R.maxProducts) },
    );
  });
  router.handle(API.replica.productRemove, async ({ params, user }) => removed(await repo.ownProducts.remove(params.id, user.id), MSG.replicaProductMissing));

  // ---- video analyses and 仿写
  router.handle(API.replica.analyseVideo, async ({ params, user }) => ({
    id: await submitVideo(ctx, user.id, { type: params.type, link: params.link, fileId: params.file_id }),
  }));
  router.handle(API.replica.videos, async ({ params, user }) => {
    const { rows, total } = await repo.videos(user.id, { ...paging(params), id: params.id });
    return { list: rows.map(videoView), total };
  });
  router.handle(API.replica.videoRemove, async ({ params, user }) => removed(await removeVideo(ctx, params.id, user.id), MSG.replicaRecordMissing));

  router.handle(API.replica.mimic, async ({ params, user }) => {
    const video = await repo.ownVideo(params.id, user.id);
    if (!video?.analysis) throw new ApiError(MSG.replicaAnalysisMissing);
    const persona = await ownPersona(ctx, user.id, params.persona_id);
    const product = await ownProduct(ctx, user.id, params.product_id);
    const variants = await paidAnswer(ctx, user.id, '超级复刻·仿写', mimicAsk(video.analysis, video.text, persona, product), readVariants(R.variants));
    const id = await repo.addScript(user.id, { kind: 'mimic', analysisId: video.id, personaName: persona.name, productName: product?.name ?? '', topic: video.title, variants });
    return { id, variants };
  });

  // ---- accounts, topics, scripts
  router.handle(API.replica.analyseAccount, async ({ params, user }) => {
    const description = await accountSource(ctx, params);
    const analysis = await paidAnswer(ctx, user.id, '超级复刻·账号分析', accountAsk(description), readAccountAnalysis);
    return { id: await repo.addAccount(user.id, description, analysis), analysis };
  });
  router.handle(API.replica.accounts, async ({ params, user }) => {
    const { rows, total } = await repo.accounts(user.id, paging(params));
    return { list: rows.map(accountView), total };
  });
  router.handle(API.replica.accountRemove, async ({ params, user }) => removed(await repo.removeAccount(params.id, user.id), MSG.replicaRecordMissing));

  router.handle(API.replica.topics, async ({ params, user }) => {
    const persona = await ownPersona(ctx, user.id, params.persona_id);
    const product = await ownProduct(ctx, user.id, params.product_id);
    return { list: await paidAnswer(ctx, user.id, '超级复刻·选题', topicAsk(persona, product), readTopics) };
  });
  router.handle(API.replica.generate, async ({ params, user }) => {
    const persona = await ownPersona(ctx, user.id, params.persona_id);
    const product = await ownProduct(ctx, user.id, params.product_id);
    const variants = await paidAnswer(ctx, user.id, '超级复刻·脚本', generateAsk(persona, product, params), readVariants(1));
    const id = await repo.addScript(user.id, { kind: 'generate', analysisId: null, personaName: persona.name, productName: product?.name ?? '', topic: params.topic, variants });
    return { id, variants };
  });
  router.handle(API.replica.scriptEdit, async ({ params, user }) => removed(await repo.editScript(params.id, user.id, params.index, params.text), MSG.replicaRecordMissing));
  router.handle(API.replica.scripts, async ({ params, user }) => {
    const { rows, total } = await repo.scripts(user.id, paging(params));
    return { list: rows.map(scriptView), total };
  });
  router.handle(API.replica.scriptRemove, async ({ params, user }) => removed(await repo.removeScript(params.id, user.id), MSG.replicaRecordMissing));
}
