import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, ResultCode } from '../../../src/contract';
import { DB_KINDS, useApp, type ApiTestClient } from '../../../tests/support/app';
import { makeImage, makeVideo, mediaDir } from '../../../tests/support/media';

describe.each(DB_KINDS)('tutorials (%s)', (kind) => {
  const t = useApp(kind);
  let a: ApiTestClient;
  const add = (category: string, name: string, cover = `https://cdn.example.com/${name}.jpg`, video = `https://cdn.example.com/${name}.mp4`) =>
    t.operator(API.admin.guideAdd, { category, name, cover, video });
  const guides = async () => (await a.call(API.guide.list, {})).data.list as { name: string; items: { name: string; cover: string; video_url: string }[] }[];

  beforeAll(async () => {
    a = await t.user('15100000001');
  });

  it('lists nothing before the operator adds a tutorial', async () => {
    expect(await guides()).toEqual([]);
  });

  it('groups tutorials by category, categories and items in the order the operator added them; https addresses kept as given', async () => {
    for (const [category, name] of [['入门', '第一课'], ['进阶', '声音克隆'], ['入门', '第二课'], ['进阶', '多场景视频'], ['入门', '第三课']]) {
      expect((await add(category!, name!)).code).toBe(0);
    }
    expect(await guides()).toEqual([
      {
        name: '入门',
        items: ['第一课', '第二课', '第三课'].map((n) => ({ name: n, cover: `https://cdn.example.com/${n}.jpg`, video_url: `https://cdn.example.com/${n}.mp4` })),
      },
      {
        name: '进阶',
        items: ['声音克隆', '多场景视频'].map((n) => ({ name: n, cover: `https://cdn.example.com/${n}.jpg`, video_url: `https://cdn.example.com/${n}.mp4` })),
      },
    ]);
  });

  it('publishes local cover and video files to public storage, served with their own Content-Type', async () => {
    const dir = mediaDir();
    const cover = makeImage(path.join(dir, 'cover.png'));
    const video = makeVideo(path.join(dir, 'lesson.mp4'), { width: 640, height: 360, seconds: 2 });
    expect((await add('本地', '本地文件', cover, video)).code).toBe(0);
    const item = (await guides()).find((c) => c.name === '本地')!.items[0]!;
    expect(item.cover).toMatch(/^\/storage\/public\/[0-9a-f-]{36}\.png$/);
    expect(item.video_url).toMatch(/^\/storage\/public\/[0-9a-f-]{36}\.mp4$/);
    expect((await fetch(`${t.url}${item.cover}`)).headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${t.url}${item.video_url}`)).headers.get('content-type')).toBe('video/mp4');
  });

  it('refuses a tutorial without a category or name, or with a file that is not there, and adds nothing', async () => {
    const before = await guides();
    expect(await add('', '没有分类')).toMatchObject({ code: 1, msg: '请填写分类' });
    expect(await add('入门', '')).toMatchObject({ code: 1, msg: '请填写名称' });
    expect((await add('入门', '缺文件', '/nonexistent/cover.png')).msg).toMatch(/文件不存在/);
    expect(await guides()).toEqual(before);
  });

  it('answers code 100 without a session', async () => {
    expect((await t.client().call(API.guide.list, {})).code).toBe(ResultCode.SessionExpired);
  });
});
