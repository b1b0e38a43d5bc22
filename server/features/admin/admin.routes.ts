/** Operator calls behind `npm run admin` (loopback and operator key only; see CallRouter). */
import { API, MSG, WorkStatus } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { createAccount, issueRedeemCodes } from '../credits';
import { fileIdOf, publishLocalFile, type PublishableKind } from '../../infra/user-files';
import { storageUrl } from '../../infra/media-files';
import type { FeatureContext } from '../../app-context';
import { GuideRepository } from '../guide';
import { NoticeRepository } from '../notice';
import { AvatarsRepository, startClone } from '../avatars';
import { VoicesRepository } from '../voices';
import { AdminRepository, avatarState, voiceState, type OperatorMediaRow, type OperatorUserRow } from './admin.repository';

const MB = 1024 * 1024;
const WORK_STATES = Object.fromEntries(Object.entries(WorkStatus).map(([name, n]) => [n, name.toLowerCase()])) as Record<number, string>;
const iso = (d: Date) => d.toISOString();

export function registerAdminRoutes(ctx: FeatureContext): void {
  const { router, db, settings } = ctx;
  const publish = (file: string, kind: PublishableKind) => publishLocalFile(ctx, file, kind);
  const urlOrFile = async (value: string, kind: PublishableKind) => (/^https:\/\//.test(value) ? value : storageUrl(await publish(value, kind)));

  router.handle(API.admin.noticeAdd, async ({ params }) => ({
    id: await new NoticeRepository(db).add({ title: params.title, summary: params.desc, content: params.content }),
  }));

  router.handle(API.admin.guideAdd, async ({ params }) => {
    const cover = await urlOrFile(params.cover, 'image');
    const video = await urlOrFile(params.video, 'video');
    return { id: await db.tx((q) => new GuideRepository(q).add({ category: params.category, name: params.name, cover, video_url: video })) };
  });

  /** Public avatars and voices are told apart by name only; a failed one does not hold its name. */
  const refuseTakenName = async (name: string, kind: '数字人' | '声音' = '数字人') => {
    const taken = kind === '数字人' ? await new AvatarsRepository(db).publicNameTaken(name) : await new VoicesRepository(db).publicNameTaken(name);
    if (taken) throw new ApiError(MSG.publicNameTaken(kind, name));
  };

  router.handle(API.admin.publicAvatarAdd, async ({ params }) => {
    await refuseTakenName(params.name);
    const video = await publish(params.video, 'video');
    const cover = await publish(params.cover, 'image');
    return { id: await new AvatarsRepository(db).addPublicReady({ name: params.name, videoKey: video, coverKey: cover, orientation: params.orientation }) };
  });

  router.handle(API.admin.avatarPublish, async ({ params }) => {
    await refuseTakenName(params.name);
    const { checkOperatorFile } = await import('../upload');
    const seconds = (await checkOperatorFile(params.video, 'video')).media.duration;
    const key = await publish(params.video, 'video');
    return { id: await db.tx(async (q) => startClone(q, ctx.queue, { userId: null, name: params.name, sourceFileId: (await fileIdOf(q, key))!, seconds })) };
  });

  router.handle(API.admin.publicVoiceAdd, async ({ params }) => {
    await refuseTakenName(params.name, '声音');
    const audio = await publish(params.audio, 'voice');
    return { id: await new VoicesRepository(db).addPublicReady({ name: params.name, audioKey: audio, api: params.api }) };
  });

  router.handle(API.admin.userCreate, async ({ params }) => {
    const id = await createAccount(db, { username: params.username, password: params.password, credits: params.credits, expiresDays: params.expires_days });
    return { id, username: params.username, credits: params.credits };
  });

  router.handle(API.admin.codeCreate, async ({ params }) => ({
    codes: await issueRedeemCodes(db, { credits: params.credits, count: params.count, expiresDays: params.expires_days }),
  }));

  const operatorUser = async (row: OperatorUserRow) => ({
    id: row.id, username: row.username, tourist: row.tourist, created_at: iso(row.created_at), credits: row.credits,
    space_used_mb: Math.round((row.used_bytes / MB) * 100) / 100,
    space_total_gb: (await settings.operatorNumber('space_base_gb')) + row.extra_gb,
    sessions: row.sessions,
  });
  const operatorMedia = (state: (status: number) => string) => (row: OperatorMediaRow) => ({
    id: row.id, name: row.name, owner: row.owner, state: state(Number(row.status)), reason: row.reason, detail: row.detail, created_at: iso(new Date(row.created_at)),
  });

  router.handle(API.admin.userList, async ({ params }) => {
    const { total, list } = await new AdminRepository(db).userList(params.limit, params.search);
    return { total, list: await Promise.all(list.map(operatorUser)) };
  });

  router.handle(API.admin.userShow, async ({ params }) => {
    const admin = new AdminRepository(db);
    const user = await admin.userByName(params.username);
    if (!user) throw new ApiError(`没有这个账号：${params.username}`);
    const [sums, batches, sessions, works] = await Promise.all([admin.ledgerSums(user.id), admin.liveBatches(user.id), admin.liveSessions(user.id), admin.worksByStatus(user.id)]);
    return {
      ...(await operatorUser(user)), ...sums,
      batches: batches.map((b) => ({ ...b, expires_at: iso(b.expires_at) })),
      session_list: sessions.map((s) => ({ created_at: iso(new Date(s.created_at)), expires_at: iso(new Date(s.expires_at)), ip: s.ip })),
      works: Object.fromEntries(works.map((w) => [WORK_STATES[w.status] ?? `status ${w.status}`, w.n])),
    };
  });

  router.handle(API.admin.voiceList, async ({ params }) => ({ list: (await new AdminRepository(db).voices(params)).map(operatorMedia(voiceState)) }));
  router.handle(API.admin.avatarList, async ({ params }) => ({ list: (await new AdminRepository(db).avatars(params)).map(operatorMedia(avatarState)) }));

  router.handle(API.admin.jobs, async ({ params }) => ({ counts: await ctx.queue.counts(), failures: await ctx.queue.latestFailures(params.failures) }));

  router.handle(API.admin.siteSet, async ({ params }) => ({ updated: await settings.set(params.settings as Record<string, string>) }));
}
