import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, SITE_FIELDS, PROTOCOL_TITLES } from '../../../src/contract';
import { DB_KINDS, useApp, type ApiTestClient } from '../../../tests/support/app';
import { makeAudio, makeImage, makeVideo, mediaDir } from '../../../tests/support/media';

describe.each(DB_KINDS)('operator calls (%s)', (kind) => {
  const t = useApp(kind);

  it('refuses operator calls without the key, or with a wrong one', async () => {
    for (const key of [undefined, 'wrong-key']) {
      const res = await fetch(`${t.url}${API.admin.userCreate.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'x-operator-key': key } : {}) },
        body: JSON.stringify({ username: '13700000000', password: 'abc123' }),
      });
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe(1);
    }
    expect((await t.client().call(API.account.login, { username: '13700000000', password: 'abc123' })).msg).toBe(MSG.loginFailed);
  });

  it('creates users with a credit grant and refuses a taken username', async () => {
    expect((await t.operator(API.admin.userCreate, { username: '13700000001', password: 'abc123', credits: 300 })).code).toBe(0);
    expect(await t.operator(API.admin.userCreate, { username: '13700000001', password: 'abc123' })).toMatchObject({ code: 1, msg: MSG.usernameTaken });
    const client = await t.login('13700000001', 'abc123');
    expect((await client.call(API.account.credits, {})).data.credits).toBe(300);
  });

  it.each([
    [{ username: '13700000002', password: 'abc123', credits: -5 }],
    [{ username: '13700000002', password: 'abc123', credits: 'lots' }],
    [{ username: '13700000002', password: 'ab' }],
    [{ password: 'abc123' }],
  ])('validates user creation %j with a Chinese message', async (body) => {
    const reply = await t.operator(API.admin.userCreate, body);
    expect(reply.code).toBe(1);
    expect(reply.msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it('creates distinct redemption codes', async () => {
    const reply = await t.operator(API.admin.codeCreate, { credits: 100, count: 25, expires_days: 30 });
    expect(reply.code).toBe(0);
    const codes: string[] = reply.data.codes;
    expect(codes).toHaveLength(25);
    expect(new Set(codes).size).toBe(25);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{16}$/);
    const { rows } = await t.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM redeem_codes WHERE credits = 100');
    expect(rows[0]!.n).toBe(25);
  });

  it('sets every site-settings field of the spec, which site info then returns', async () => {
    const settings = Object.fromEntries(SITE_FIELDS.map((f) => [f, `value of ${f}`]));
    expect((await t.operator(API.admin.siteSet, { settings })).data.updated).toHaveLength(SITE_FIELDS.length);
    const site = await t.client().call(API.site.site, {});
    for (const f of SITE_FIELDS) expect(site.data[f]).toBe(`value of ${f}`);
    const privacy = await t.client().call(API.site.protocol, { type: 'privacy' });
    expect(privacy.data).toEqual({ title: PROTOCOL_TITLES.privacy, content: 'value of privacy_agreement' });
  });

  it('refuses unknown settings', async () => {
    expect((await t.operator(API.admin.siteSet, { settings: { nope: 'x' } })).code).toBe(1);
  });
});

describe.each(DB_KINDS)('operator publishing of guides and public media (%s)', (kind) => {
  const t = useApp(kind);
  let a: ApiTestClient;
  beforeAll(async () => {
    a = await t.user('15100000001');
  });

  it('publishes guides, public avatars and voices from local files, served with our own Content-Type', async () => {
    const dir = mediaDir();
    const video = makeVideo(path.join(dir, 'a.mp4'), { width: 640, height: 360, seconds: 2 });
    const cover = makeImage(path.join(dir, 'a.png'));
    const audio = makeAudio(path.join(dir, 'v.mp3'), { seconds: 2 });

    expect((await t.operator(API.admin.guideAdd, { category: '入门', name: '第一课', cover, video })).code).toBe(0);
    const guides = (await a.call(API.guide.list, {})).data.list;
    expect(guides).toHaveLength(1);
    expect(guides[0].name).toBe('入门');
    expect(guides[0].items[0].video_url).toMatch(/^\/storage\/public\/[0-9a-f-]{36}\.mp4$/);

    expect((await t.operator(API.admin.publicAvatarAdd, { name: '横屏主播', orientation: 1, video, cover })).code).toBe(0);
    expect((await t.operator(API.admin.publicAvatarAdd, { name: '竖屏主播', orientation: 2, video, cover })).code).toBe(0);
    const pub = (await a.call(API.avatars.publicList, { source: 2, page: 1, limit: 20 })).data;
    expect(pub.hlist.map((x: { name: string }) => x.name)).toEqual(['横屏主播']);
    expect(pub.slist.map((x: { name: string }) => x.name)).toEqual(['竖屏主播']);
    expect((await a.call(API.avatars.list, { source: 1, page: 1, limit: 20 })).data.list).toEqual([]);

    expect((await t.operator(API.admin.publicVoiceAdd, { name: '标准女声', audio })).code).toBe(0);
    const voices = (await a.call(API.voices.list, { source: 2, page: 1, limit: 9999 })).data;
    expect(voices.list[0]).toMatchObject({ name: '标准女声', source: 2, api: 'local' });

    const res = await fetch(`${t.url}${pub.hlist[0].url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const audioRes = await fetch(`${t.url}${voices.list[0].url}`);
    expect(audioRes.headers.get('content-type')).toBe('audio/mpeg');
  });

  it('refuses a second public avatar or voice of the same name (the lists cannot tell them apart)', async () => {
    const dir = mediaDir();
    const video = makeVideo(path.join(dir, 'b.mp4'), { width: 640, height: 360, seconds: 2 });
    const cover = makeImage(path.join(dir, 'b.png'));
    const audio = makeAudio(path.join(dir, 'b.mp3'), { seconds: 2 });
    expect((await t.operator(API.admin.publicAvatarAdd, { name: '同名主播', orientation: 1, video, cover })).code).toBe(0);
    const avatarTaken = { code: 1, msg: MSG.publicNameTaken('数字人', '同名主播') };
    expect(await t.operator(API.admin.publicAvatarAdd, { name: '同名主播', orientation: 2, video, cover })).toMatchObject(avatarTaken);
    expect(await t.operator(API.admin.avatarPublish, { name: '同名主播', video })).toMatchObject(avatarTaken);
    expect((await t.operator(API.admin.publicVoiceAdd, { name: '同名女声', audio })).code).toBe(0);
    const voiceTaken = { code: 1, msg: MSG.publicNameTaken('声音', '同名女声') };
    expect(await t.operator(API.admin.publicVoiceAdd, { name: '同名女声', audio })).toMatchObject(voiceTaken);
    expect(await t.operator(API.admin.voicePublish, { name: '同名女声', audio })).toMatchObject(voiceTaken);
    // Another name is fine.
    expect((await t.operator(API.admin.publicVoiceAdd, { name: '另一个女声', audio })).code).toBe(0);
  });

  it('refuses files of the wrong kind and paths that are not files', async () => {
    const png = makeImage(path.join(mediaDir(), 'x.png'));
    expect((await t.operator(API.admin.publicAvatarAdd, { name: 'x', orientation: 1, video: png, cover: png })).msg).toMatch(/不支持的文件格式/);
    expect((await t.operator(API.admin.publicVoiceAdd, { name: 'x', audio: '/etc' })).msg).toMatch(/文件不存在/);
  });

  it('serves nothing outside public storage', async () => {
    for (const p of ['/storage/public/..%2F..%2Foperator.key', '/storage/public/%2e%2e', '/storage/public/nope.mp4', '/storage/1/x.mp4']) {
      const res = await fetch(`${t.url}${p}`);
      expect(res.status, p).toBe(404);
    }
  });
});
