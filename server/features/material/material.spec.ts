import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, MSG } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { makeAudio, makeImage, mediaDir } from '../../../tests/support/media';
import { uploadFile } from '../../../tests/support/upload';

describe.each(DB_KINDS)('material library (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15900000001', '15900000002']);
  const list = (c: ApiTestClient, extra = {}) => c.call(API.material.list, { page: 1, limit: 50, ...extra }).then((r) => r.data.list as any[]);

  it('holds every upload (named after the file) and saved texts; filters by type and source; keeps users apart', async () => {
    const dir = mediaDir();
    expect((await uploadFile(a, 'image', makeImage(path.join(dir, '封面图.png'), { width: 400, height: 400 }))).code).toBe(0);
    expect((await uploadFile(a, 'voice', makeAudio(path.join(dir, 'v.mp3'), { seconds: 6 }))).code).toBe(0);
    expect((await a.call(API.material.saveText, { name: '好文案', text: '大家好，欢迎来到直播间。' })).code).toBe(0);
    expect((await a.call(API.material.saveText, { name: '空', text: '' })).msg).toBe(MSG.textRequired);

    const all = await list(a);
    expect(all.map((m) => m.type)).toEqual(['text', 'audio', 'image']);
    expect(all[2]).toMatchObject({ source: 1, type: 'image' });
    expect(all[0]).toMatchObject({ source: 2, origin: 'copy_chat', text: '大家好，欢迎来到直播间。' });
    expect((await list(a, { type: 'audio' })).map((m) => m.type)).toEqual(['audio']);
    expect((await list(a, { source: 2 })).map((m) => m.type)).toEqual(['text']);
    expect((await fetch(`${t.url}${all[2].url}`)).headers.get('content-type')).toBe('image/png');
    expect(await list(b)).toEqual([]);
  });

  it('renames and deletes, with the file, only the owner\'s', async () => {
    const [first] = await list(a, { type: 'image' });
    expect((await b.call(API.material.rename, { id: first.id, name: '抢' })).msg).toBe(MSG.notFound);
    expect((await a.call(API.material.rename, { id: first.id, name: '' })).msg).toBe(MSG.renameNameRequired);
    expect((await a.call(API.material.rename, { id: first.id, name: '新名字' })).code).toBe(0);
    expect((await list(a, { type: 'image' }))[0].name).toBe('新名字');
    expect((await b.call(API.material.remove, { id: first.id })).msg).toBe(MSG.notFound);
    const used = (await a.call(API.credits.space, {})).data.used;
    expect((await a.call(API.material.remove, { id: first.id })).code).toBe(0);
    expect(await list(a, { type: 'image' })).toEqual([]);
    expect((await a.call(API.credits.space, {})).data.used).toBeLessThan(used);
    expect((await fetch(`${t.url}${first.url}`)).status).toBe(404);
  });
});
