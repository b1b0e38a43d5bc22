import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, AvatarStatus, MSG } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { makeImage, makeVideo, mediaDir } from '../../../tests/support/media';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { fetchHead } from '../../../tests/support/fetch';

const dir = mediaDir();
const video = makeVideo(path.join(dir, 'avatar.mp4'), { width: 640, height: 360, seconds: 6 });
/** A 6-second mp4 with its index at the front (faststart), cut to 40% of its bytes: the index still claims 6 s. */
const truncated = fs.readFileSync(video).subarray(0, Math.floor(fs.statSync(video).size * 0.4));

describe.each(DB_KINDS)('avatars (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15500000001', '15500000002']);
  let avatarId: number;
  const own = (c: ApiTestClient) => c.call(API.avatars.list, { source: 1, page: 1, limit: 50 }).then((r) => r.data.list as any[]);
  const settled = (c: ApiTestClient, id: number) => until(() => own(c), (l) => l.find((x) => x.id === id)?.status !== AvatarStatus.Cloning, 60_000).then((l) => l.find((x) => x.id === id));
  const objectPath = (url: string) => path.join(t.dataDir, 'objects', url.split('?')[0]!.replace('/storage/', ''));

  it('clones an uploaded video: cloning, then ready with its video, covers and duration; a video clones once', async () => {
    const upload = await uploadFile(a, 'video', video);
    expect(upload.code).toBe(0);
    expect(await a.call(API.avatars.clone, { name: '', file_id: upload.data.file_id })).toMatchObject({ code: 1, msg: MSG.avatarNameRequired });
    const image = await uploadFile(a, 'image', makeImage(path.join(dir, 'cover.png'), { width: 400, height: 400 }));
    expect(await a.call(API.avatars.clone, { name: '图片', file_id: image.data.file_id })).toMatchObject({ code: 1, msg: MSG.avatarVideoRequired });
    const reply = await a.call(API.avatars.clone, { name: '我的主播', file_id: upload.data.file_id });
    expect(reply.code).toBe(0);
    avatarId = reply.data.id;
    expect((await own(a)).find((x) => x.id === avatarId)).toMatchObject({ name: '我的主播', status: AvatarStatus.Cloning, source: 1 });
    const ready = await settled(a, avatarId);
    expect(ready).toMatchObject({ status: AvatarStatus.Ready, orientation: 1, source: 1 });
    expect(ready.duration).toBeCloseTo(6, 0);
    for (const url of [ready.url, ready.cover, ready.cover_small]) expect((await fetchHead(`${t.url}${url}`)).status).toBe(200);
    // The normalized copy replaces the upload in the user's space: the original object is gone.
    expect(fs.existsSync(path.join(t.dataDir, 'objects', upload.data.url.split('?')[0].replace('/storage/', '')))).toBe(false);
    expect(await a.call(API.avatars.clone, { name: '再来', file_id: upload.data.file_id })).toMatchObject({ code: 1 });
  });

  it('keeps the upload in the material library (视频) as the avatar\'s video; removing it there leaves the avatar playing', async () => {
    const [avatar] = (await own(a)).filter((x) => x.id === avatarId);
    const videos = (await a.call(API.material.list, { type: 'video', page: 1, limit: 50 })).data.list as any[];
    expect(videos).toHaveLength(1);
    expect(videos[0]).toMatchObject({ type: 'video', source: 1 });
    expect(videos[0].url.split('?')[0]).toBe(avatar.url.split('?')[0]);
    const space = (await a.call(API.credits.space, {})).data.used;
    expect((await a.call(API.material.remove, { id: videos[0].id })).code).toBe(0);
    expect((await a.call(API.material.list, { type: 'video', page: 1, limit: 50 })).data.list).toEqual([]);
    expect((await fetchHead(`${t.url}${avatar.url}`)).status).toBe(200);
    expect((await a.call(API.credits.space, {})).data.used).toBe(space);
  });

  it('lists by name, and the public lists show no user\'s avatar', async () => {
    expect((await a.call(API.avatars.list, { source: 1, page: 1, limit: 50, name: '主播' })).data.list.map((x: any) => x.id)).toEqual([avatarId]);
    expect((await a.call(API.avatars.list, { source: 1, page: 1, limit: 50, name: '没有' })).data.list).toEqual([]);
    expect((await a.call(API.avatars.list, { source: 2, page: 1, limit: 50 })).data.list).toEqual([]);
    expect((await b.call(API.avatars.publicList, { source: 2, page: 1, limit: 50 })).data).toEqual({ hlist: [], slist: [] });
  });

  it('keeps two users apart: B neither lists, deletes nor clones from A\'s', async () => {
    expect(await own(b)).toEqual([]);
    expect((await b.call(API.avatars.remove, { id: avatarId })).msg).toBe(MSG.notFound);
    const aUpload = await uploadFile(a, 'video', video);
    expect((await b.call(API.avatars.clone, { name: 'B的', file_id: aUpload.data.file_id })).msg).toBe(MSG.avatarVideoRequired);
    expect((await own(a)).map((x) => x.id)).toContain(avatarId);
  });

  it('enforces the 5 s minimum at clone: a registered file said to be short is refused, one whose bytes were cut fails its clone', async () => {
    const short = await uploadFile(a, 'video', video);
    await t.app.ctx.db.query('UPDATE files SET duration = 2.12 WHERE id = $1', [short.data.file_id]);
    expect(await a.call(API.avatars.clone, { name: '太短', file_id: short.data.file_id })).toMatchObject({ code: 1, msg: MSG.videoDurationInvalid });

    // Registered before uploads were measured by their packets: the file row claims 6 s, the bytes hold about 2.
    const cut = await uploadFile(a, 'video', video);
    fs.writeFileSync(objectPath(cut.data.url), truncated);
    const reply = await a.call(API.avatars.clone, { name: '被截断', file_id: cut.data.file_id });
    expect(reply.code).toBe(0);
    expect(await settled(a, reply.data.id)).toMatchObject({ status: AvatarStatus.Failed, reason: MSG.videoDurationInvalid });
    expect((await a.call(API.avatars.remove, { id: reply.data.id })).code).toBe(0);
  });

  it('tells the owner in the bell when a clone ends, ready or failed; no one else sees it', async () => {
    const mine = (await a.call(API.notice.list, {})).data.list as any[];
    const ready = mine.find((n) => n.title === MSG.avatarCloneReady('我的主播'));
    expect(ready).toMatchObject({ read: 0, desc: '在「我的数字人」中查看' });
    expect(mine.find((n) => n.title === MSG.avatarCloneFailed('被截断'))).toMatchObject({ desc: `原因：${MSG.videoDurationInvalid}` });
    expect((await b.call(API.notice.list, {})).data.list).toEqual([]);
    expect(await b.call(API.notice.detail, { id: ready.id })).toMatchObject({ code: 1, msg: MSG.notFound });
    expect(await a.call(API.notice.detail, { id: ready.id })).toMatchObject({ code: 0, data: { title: MSG.avatarCloneReady('我的主播') } });
    expect((await a.call(API.notice.list, {})).data.list.find((n: any) => n.id === ready.id).read).toBe(1);
  });

  it('deletes an avatar with its objects, freeing the space', async () => {
    const [avatar] = (await own(a)).filter((x) => x.id === avatarId);
    const before = (await a.call(API.credits.space, {})).data.used;
    expect((await a.call(API.avatars.remove, { id: avatarId })).code).toBe(0);
    expect((await own(a)).map((x) => x.id)).not.toContain(avatarId);
    expect((await a.call(API.credits.space, {})).data.used).toBeLessThan(before);
    for (const url of [avatar.url, avatar.cover]) expect((await fetchHead(`${t.url}${url}`)).status).toBe(404);
    expect((await a.call(API.avatars.remove, { id: avatarId })).msg).toBe(MSG.notFound);
  });
});
