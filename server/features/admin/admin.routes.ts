/** Operator calls behind `npm run admin` (loopback and operator key only; see CallRouter). */
import fs from 'node:fs';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { API, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { hashPassword } from '../../infra/passwords';
import { daysFromNow, grantCredits } from '../credits';
import { publishLocalFile, type PublishableKind } from '../../infra/user-files';
import { storageUrl } from '../../infra/media-files';
import type { FeatureContext } from '../../app-context';
import { GuideRepository } from '../guide';

/** Redemption codes: 16 characters without look-alikes (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export function newRedeemCode(): string {
  let code = '';
  for (let i = 0; i < 16; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export function registerAdminRoutes(ctx: FeatureContext): void {
  const { router, db, settings } = ctx;
  const publish = (file: string, kind: PublishableKind) => publishLocalFile(ctx, file, kind);
  const urlOrFile = async (value: string, kind: PublishableKind) => (/^https:\/\//.test(value) ? value : storageUrl(await publish(value, kind)));

  router.handle(API.admin.noticeAdd, async ({ params }) => {
    const { rows } = await db.query<{ id: number }>('INSERT INTO notices (title, summary, content) VALUES ($1, $2, $3) RETURNING id', [params.title, params.desc, params.content]);
    return { id: rows[0]!.id };
  });

  router.handle(API.admin.guideAdd, async ({ params }) => {
    const cover = await urlOrFile(params.cover, 'image');
    const video = await urlOrFile(params.video, 'video');
    return { id: await db.tx((q) => new GuideRepository(q).add({ category: params.category, name: params.name, cover, video_url: video })) };
  });

  router.handle(API.admin.publicAvatarAdd, async ({ params }) => {
    const video = await publish(params.video, 'video');
    const cover = await publish(params.cover, 'image');
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO avatars (user_id, name, video_key, cover_key, cover_small_key, orientation, status) VALUES (NULL, $1, $2, $3, $3, $4, 3) RETURNING id`,
      [params.name, video, cover, params.orientation],
    );
    return { id: rows[0]!.id };
  });

  router.handle(API.admin.avatarPublish, async ({ params }) => {
    const full = path.resolve(params.video);
    if (!fs.statSync(full, { throwIfNoEntry: false })?.isFile()) throw new ApiError(`文件不存在：${params.video}`);
    const { checkMedia, MediaRefused } = await import('../upload');
    try {
      await checkMedia(full, 'video', fs.statSync(full).size);
    } catch (err) {
      if (err instanceof MediaRefused) throw new ApiError(`${params.video}：${err.message}`);
      throw err;
    }
    const key = await publish(params.video, 'video');
    return db.tx(async (q) => {
      const { rows: file } = await q.query<{ id: number }>('SELECT id FROM files WHERE object_key = $1', [key]);
      const { rows } = await q.query<{ id: number }>(
        `INSERT INTO avatars (user_id, name, status, source_file_id) VALUES (NULL, $1, 1, $2) RETURNING id`,
        [params.name, file[0]!.id],
      );
      await ctx.queue.send('avatar-clone', { avatarId: rows[0]!.id }, {}, q);
      return { id: rows[0]!.id };
    });
  });

  router.handle(API.admin.publicVoiceAdd, async ({ params }) => {
    const audio = await publish(params.audio, 'voice');
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO voices (user_id, name, audio_key, api, generate_status) VALUES (NULL, $1, $2, $3, 2) RETURNING id`,
      [params.name, audio, params.api],
    );
    return { id: rows[0]!.id };
  });

  router.handle(API.admin.userCreate, async ({ params }) => {
    const hash = await hashPassword(params.password);
    return db.tx(async (q) => {
      const { rows } = await q.query<{ id: number }>(
        'INSERT INTO users (username, password_hash) VALUES ($1, $2) ON CONFLICT (username) DO NOTHING RETURNING id',
        [params.username, hash],
      );
      if (!rows[0]) throw new ApiError(MSG.usernameTaken);
      const id = rows[0].id;
      if (params.credits > 0) {
        await grantCredits(q, { userId: id, amount: params.credits, expiresAt: daysFromNow(params.expires_days), source: 'operator' });
      }
      return { id, username: params.username, credits: params.credits };
    });
  });

  router.handle(API.admin.codeCreate, async ({ params }) => {
    const codes: string[] = [];
    await db.tx(async (q) => {
      while (codes.length < params.count) {
        const code = newRedeemCode();
        const { rowCount } = await q.query(
          `INSERT INTO redeem_codes (code, credits, expires_at) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING`,
          [code, params.credits, daysFromNow(params.expires_days)],
        );
        if (rowCount === 1) codes.push(code);
      }
    });
    return { codes };
  });

  router.handle(API.admin.siteSet, async ({ params }) => ({ updated: await settings.set(params.settings as Record<string, string>) }));
}
