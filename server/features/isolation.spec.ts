/**
 * Two users, every call that takes an id of a user's object: B can never list, read, play, download, rename,
 * delete or use A's avatars, materials, works, uploads or files, and A's objects are unchanged afterwards.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, type CallDef } from '../../src/contract';
import { DB_KINDS, useApp, useUsers } from '../../tests/support/app';
import { makeAudio, makeImage, makeVideo, mediaDir } from '../../tests/support/media';
import { readyAvatar } from '../../tests/support/ready-avatar';
import { postToStorage, signUpload, uploadFile } from '../../tests/support/upload';
import { until } from '../../tests/support/wait';
import { fetchHead } from '../../tests/support/fetch';

describe.each(DB_KINDS)('two users and every id-taking call (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15500000001', '15500000002'], 500);
  const ids = { avatar: 0, work: 0, material: 0, videoFile: 0, audioFile: 0, imageMaterial: 0 };
  let aSnapshot = '';
  const snapshot = async () =>
    JSON.stringify([
      (await a.call(API.avatars.list, { source: 1, page: 1, limit: 99 })).data.list.map((x: { id: number; name: string; status: number }) => [x.id, x.name, x.status]),
      (await a.call(API.works.list, { page: 1, limit: 99 })).data.list.map((x: { id: number; name: string; status: number }) => [x.id, x.name, x.status]),
      (await a.call(API.material.list, { page: 1, limit: 99 })).data.list.map((x: { id: number; name: string }) => [x.id, x.name]),
      (await a.call(API.account.credits, {})).data.credits,
    ]);

  beforeAll(async () => {
    const dir = mediaDir();
    const video = await uploadFile(a, 'video', makeVideo(path.join(dir, 'v.mp4'), { width: 640, height: 360, seconds: 5 }));
    ids.videoFile = video.data.file_id;
    // A's avatar as a clone of that video leaves it; the upload stays, for B to try cloning from.
    ids.avatar = await readyAvatar(t, a, path.join(dir, 'v.mp4'), 'A的数字人');
    ids.audioFile = (await uploadFile(a, 'voice', makeAudio(path.join(dir, 's.mp3'), { seconds: 6 }))).data.file_id;
    ids.work = (await a.call(API.works.create, { name: 'A的作品', api: 'local', video_id: ids.avatar, voice_id: ids.audioFile, drive: 'audio' })).data.id;
    await until(() => a.call(API.works.list, { page: 1, limit: 9 }), (r) => r.data.list[0]?.status === 3);
    await uploadFile(a, 'image', makeImage(path.join(dir, 'i.png'), { width: 400, height: 400 }));
    ids.imageMaterial = (await a.call(API.material.list, { type: 'image', page: 1, limit: 9 })).data.list[0].id;
    ids.material = (await a.call(API.material.saveText, { name: 'A的文案', text: '只属于A' })).data.id;
    aSnapshot = await snapshot();
  }, 180_000);

  it('lists none of A\'s objects to B', async () => {
    expect((await b.call(API.avatars.list, { source: 1, page: 1, limit: 99 })).data.list).toEqual([]);
    expect((await b.call(API.works.list, { page: 1, limit: 99 })).data).toMatchObject({ list: [], total: 0 });
    expect((await b.call(API.material.list, { page: 1, limit: 99 })).data.list).toEqual([]);
  });

  const attempts: [string, CallDef, () => Record<string, unknown>][] = [
    ['rename A\'s work', API.works.rename, () => ({ id: ids.work, name: 'B改的' })],
    ['delete A\'s work', API.works.remove, () => ({ id: ids.work })],
    ['delete A\'s avatar', API.avatars.remove, () => ({ id: ids.avatar })],
    ['rename A\'s material', API.material.rename, () => ({ id: ids.material, name: 'B改的' })],
    ['delete A\'s material', API.material.remove, () => ({ id: ids.material })],
    ['delete A\'s image material', API.material.remove, () => ({ id: ids.imageMaterial })],
    ['clone from A\'s uploaded video', API.avatars.clone, () => ({ name: 'B的', file_id: ids.videoFile })],
    ['render with A\'s avatar', API.works.create, () => ({ name: 'B的', api: 'local', video_id: ids.avatar, voice_id: ids.audioFile, drive: 'audio' })],
  ];

  it.each(attempts)('refuses B trying to %s, and changes nothing of A\'s', async (_label, call, params) => {
    const reply = await b.call(call, params());
    expect(reply.code).toBe(1);
    expect(reply.status).toBeLessThan(500);
    expect(await snapshot()).toBe(aSnapshot);
  });

  it('never serves A\'s media without A\'s signed URL, and B cannot register A\'s upload', async () => {
    const work = (await a.call(API.works.list, { page: 1, limit: 9 })).data.list[0];
    const bare = work.url.split('?')[0];
    expect((await fetchHead(`${t.url}${bare}`)).status).toBe(404);
    expect((await fetchHead(`${t.url}${bare}?exp=9999999999&sig=x`)).status).toBe(404);
    expect((await fetchHead(`${t.url}${work.url}`)).status).toBe(200);
    const sign = await signUpload(a, 'image');
    const direct = await postToStorage(a, sign, Buffer.from('x'), { name: 'x.png' });
    expect((await b.call(API.upload.complete, { file_type: 'image', size: 1, url: direct.url })).code).toBe(1);
    expect((await postToStorage(b, sign, Buffer.from('y'), { token: b.token })).status).toBe(403);
  });
});
