/**
 * Video and audio extraction through real HTTP on both databases, against loopback peers that speak the two
 * link-parse APIs and a media host: share texts parsed into records that go processing → done with the video (or
 * an mp3 of its sound) in our storage and a cover; the daily free count, then 10 credits; every failure (expired
 * link, picture post, slow engine, media that is no video, a redirect inside) refunded with its reason; bad links
 * and files refused at submit for nothing; audio from an uploaded video with no engine; save to assets; two users
 * who never see each other's records.
 */
import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, LIMITS, MSG } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { makeAudio, makeVideo, mediaDir, withoutSound } from '../../../tests/support/media';
import { startHybridPeer, startParseVideoPeer, useGuardedMedia, type ParsePeer } from '../../../tests/support/peers/parse-peers';
import { uploadFile } from '../../../tests/support/upload';
import { ended } from '../../../tests/support/wait';
import { creditsOf } from '../../../tests/support/voices';
import { probe } from '../../infra/media-probe';

const dir = mediaDir();
const CLIP = makeVideo(path.join(dir, 'clip.mp4'), { seconds: 5 });
const SILENT = path.join(dir, 'silent.mp4');
const MUSIC = makeAudio(path.join(dir, 'music.mp3'), { seconds: 3 });

const share = (link: string) => `7.43 复制打开抖音，看看【小明的作品】今天天气真好 # 日常 ${link} PbT:/ 04/12`;

describe.each(DB_KINDS)('video and audio extraction (%s)', (kind) => {
  // The media host is a test peer on loopback: let the guarded fetcher reach its port (and only its port).
  const media = useGuardedMedia(CLIP);
  let hybrid: ParsePeer;
  let parseVideo: ParsePeer;
  beforeAll(async () => {
    [hybrid, parseVideo] = await Promise.all([startHybridPeer(), startParseVideoPeer()]);
    const { host } = media;
    host.serve('/v/clip.mp4', CLIP);
    host.serve('/v/music.mp3', MUSIC);
    const posts = {
      'https://v.douyin.com/ok1/': { desc: '今天天气真好，一起去公园散步吧 #日常', videoUrl: `${host.url}/v/clip.mp4`, musicUrl: `${host.url}/v/clip.mp4` },
      'https://v.douyin.com/ok2/': { desc: '第二个视频', videoUrl: `${host.url}/v/clip.mp4` },
      'https://v.douyin.com/pics/': { desc: '图文作品', musicUrl: `${host.url}/v/music.mp3` },
      'https://v.douyin.com/slow/': { desc: '慢', videoUrl: `${host.url}/v/clip.mp4`, slowMs: 8000 },
      'https://v.douyin.com/notvideo/': { desc: '假视频', videoUrl: `${host.url}/v/not-video.mp4` },
      'https://v.douyin.com/inside/': { desc: '内网', videoUrl: `${host.url}/v/inside.mp4` },
    };
    for (const [link, post] of Object.entries(posts)) hybrid.posts.set(link, post);
    parseVideo.posts.set('https://v.kuaishou.com/ks1', { desc: '快手作品标题', videoUrl: `${host.url}/v/clip.mp4`, coverUrl: `${host.url}/v/cover.jpg` });
  });
  afterAll(() => Promise.all([hybrid, parseVideo].map((p) => p?.close())));

  const t = useApp(kind, media.overrides);
  const [a, b] = useUsers(t, ['15900000001', '15900000002'], 100);

  const credits = creditsOf;
  const videos = (c: ApiTestClient, status?: number) => c.call(API.extraction.videoList, { page: 1, limit: 50, ...(status ? { status } : {}) });
  const audios = (c: ApiTestClient, status?: number) => c.call(API.extraction.audioList, { page: 1, limit: 50, ...(status ? { status } : {}) });
  const engine = (settings: Record<string, string>) => t.operator(API.admin.siteSet, { settings });
  const finished = (list: () => Promise<any>, id: number) => ended(() => list().then((r) => r.data.list as any[]), id, 30_000);
  async function parse(c: ApiTestClient, text: string) {
    const reply = await c.call(API.extraction.videoParse, { link: text });
    expect(reply.code, reply.msg).toBe(0);
    return finished(() => videos(c), reply.data.id);
  }
  /** The status of a GET, its body dropped (an unread body would hold the connection, and the server's close, open). */
  async function statusOf(url: string) {
    const res = await fetch(`${t.url}${url}`);
    await res.body?.cancel();
    return res.status;
  }
  async function download(url: string, name: string) {
    const file = path.join(dir, `${name}-${kind}`);
    const res = await fetch(`${t.url}${url}`);
    expect(res.status).toBe(200);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    return file;
  }

  it('refuses bad links and bad files at submit, charging nothing', async () => {
    const refused: [string, string][] = [
      ['只有文字没有链接', MSG.extractionLinkMissing],
      ['file:///etc/passwd', MSG.extractionLinkMissing],
      ['gopher://127.0.0.1:6379/_INFO', MSG.extractionLinkMissing],
      ['看看 http://127.0.0.1:8080/a.mp4', MSG.extractionLinkRefused],
      ['http://169.254.169.254/latest/meta-data/', MSG.extractionLinkRefused],
      ['http://10.0.0.8/v.mp4', MSG.extractionLinkRefused],
      ['http://[::1]/v.mp4', MSG.extractionLinkRefused],
      [share('https://v.douyin.com/ok1/'), MSG.parseEngineMissing],
    ];
    for (const [text, msg] of refused) {
      expect(await a.call(API.extraction.videoParse, { link: text }), text).toMatchObject({ code: 1, msg });
      expect(await a.call(API.extraction.audioExtract, { type: 1, link: text }), text).toMatchObject({ code: 1, msg });
    }
    expect(await a.call(API.extraction.videoParse, { link: ' ' })).toMatchObject({ code: 1, msg: MSG.extractionLinkRequired });
    expect(await a.call(API.extraction.audioExtract, { type: 2 })).toMatchObject({ code: 1, msg: MSG.translationVideoRequired });
    expect(await a.call(API.extraction.audioExtract, { type: 2, file_id: 999999 })).toMatchObject({ code: 1, msg: MSG.extractionVideoMissing });
    // An uploaded picture is not a video; nor is another user's upload theirs to use.
    const upload = await uploadFile(b, 'video', CLIP);
    expect(upload.code, upload.msg).toBe(0);
    expect(await a.call(API.extraction.audioExtract, { type: 2, file_id: upload.data.file_id })).toMatchObject({ code: 1, msg: MSG.extractionVideoMissing });
    expect(await credits(a)).toBe(100);
    expect((await videos(a)).data).toMatchObject({ list: [], num: 0, total: 0 });
  });

  it('extracts a pasted share text through the hybrid API: the free count first, then 10 credits', async () => {
    await engine({ parse_engine: 'hybrid', parse_base_url: hybrid.url, extraction_free_daily: '1' });
    expect((await videos(a)).data.num).toBe(1);
    const first = await parse(a, share('https://v.douyin.com/ok1/'));
    expect(hybrid.requests.at(-1)).toEqual({ path: '/api/hybrid/video_data', link: 'https://v.douyin.com/ok1/' });
    expect(first).toMatchObject({ status: 3, status_name: '成功', desc: '今天天气真好，一起去公园散步吧 #日常', link: 'https://v.douyin.com/ok1/' });
    expect(await credits(a)).toBe(100);
    expect((await videos(a)).data.num).toBe(0);

    // Our own copy: the same bytes the CDN served, a real video, and a cover made from it.
    const file = await download(first.url, 'first.mp4');
    expect(fs.readFileSync(file).equals(fs.readFileSync(CLIP))).toBe(true);
    expect(first.size).toBe(fs.statSync(CLIP).size);
    expect((await probe(file, 'mp4')).video?.codec).toBe('h264');
    const cover = await download(first.cover, 'cover.jpg');
    expect((await probe(cover, 'jpg')).video?.width).toBeGreaterThan(0);

    const second = await parse(a, 'https://v.douyin.com/ok2/');
    expect(second).toMatchObject({ status: 3, desc: '第二个视频' });
    expect(await credits(a)).toBe(100 - LIMITS.extractionCredits);
    // The other user has a free count of their own and sees none of A's records.
    expect((await videos(b)).data).toMatchObject({ list: [], num: 1, total: 0 });
    expect((await audios(a)).data.list).toEqual([]);
  });

  it('fails expired links, picture posts, slow engines and media that is no video, refunding each with its reason', async () => {
    // Long enough that a loaded machine answers the quick cases in time, short beside the slow peer's 8 s.
    await engine({ parse_timeout_ms: '2500' });
    const before = await credits(a);
    const cases: [string, string][] = [
      ['https://v.douyin.com/expired/', MSG.parseLinkExpired],
      ['https://v.douyin.com/pics/', MSG.parseNotVideo],
      ['https://v.douyin.com/slow/', MSG.parseTimeout],
      ['https://v.douyin.com/notvideo/', MSG.extractMediaInvalid],
      ['https://v.douyin.com/inside/', MSG.fetchAddressRefused],
    ];
    for (const [link, why] of cases) expect(await parse(a, share(link)), link).toMatchObject({ status: 4, status_name: '失败', reason: MSG.extractionFailed(why, false), url: '' });
    expect(media.trap.hits).toEqual([]);
    expect(await credits(a)).toBe(before);
    const log = (await a.call(API.credits.log, { page: 1, limit: 50 })).data.list as { action_name: string }[];
    expect(log.filter((x) => x.action_name === '视频提取失败退回')).toHaveLength(cases.length);

    // Tabs: processing (1) and failed (4).
    expect((await videos(a, 4)).data.total).toBe(cases.length);
    expect((await videos(a, 1)).data.total).toBe(0);
    expect((await videos(a, 3)).data.total).toBe(2);

    // A free extraction that fails gives the free count back.
    const failedFree = await parse(b, 'https://v.douyin.com/expired/');
    expect(failedFree).toMatchObject({ status: 4, reason: MSG.extractionFailed(MSG.parseLinkExpired, true) });
    expect((await videos(b)).data.num).toBe(1);
    expect(await credits(b)).toBe(100);

    // Without credits and without a free count, nothing is recorded.
    const poor = await t.user('15900000003', 5);
    expect((await parse(poor, 'https://v.douyin.com/ok2/')).status).toBe(3);
    expect(await poor.call(API.extraction.videoParse, { link: 'https://v.douyin.com/ok2/' })).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect((await videos(poor)).data.total).toBe(1);
  });

  it('parses through the parse-video API, and fetches direct media links with no engine at all', async () => {
    await engine({ parse_engine: 'parsevideo', parse_base_url: parseVideo.url, parse_timeout_ms: '' });
    // The lists say whether share links can be parsed, so the screens can say so before the click.
    expect((await a.call(API.extraction.videoList, { page: 1, limit: 10 })).data.parse_ready).toBe(true);
    const ks = await parse(a, '看看这个 https://v.kuaishou.com/ks1 快手');
    expect(ks).toMatchObject({ status: 3, desc: '快手作品标题' });
    expect(parseVideo.requests.at(-1)?.link).toBe('https://v.kuaishou.com/ks1');
    expect(await parse(a, 'https://v.kuaishou.com/gone')).toMatchObject({ status: 4, reason: MSG.extractionFailed(MSG.parseLinkExpired, false) });

    await engine({ parse_engine: 'none' });
    expect((await a.call(API.extraction.videoList, { page: 1, limit: 10 })).data.parse_ready).toBe(false);
    expect((await a.call(API.extraction.audioList, { page: 1, limit: 10 })).data.parse_ready).toBe(false);
    expect(await a.call(API.extraction.videoParse, { link: 'https://v.douyin.com/ok1/' })).toMatchObject({ code: 1, msg: MSG.parseEngineMissing });
    expect(await parse(a, `${media.host.url}/v/clip.mp4`)).toMatchObject({ status: 3, desc: 'clip' });
    expect(await parse(a, `${media.host.url}/v/inside.mp4`)).toMatchObject({ status: 4, reason: MSG.extractionFailed(MSG.fetchAddressRefused, false) });
    expect(media.trap.hits).toEqual([]);
  });

  it('extracts the sound as an mp3, from an uploaded video with no engine and from a link', async () => {
    const upload = await uploadFile(a, 'video', CLIP);
    expect(upload.code, upload.msg).toBe(0);
    const uploadName = (await a.call(API.material.list, { type: 'video', source: 1, page: 1, limit: 1 })).data.list[0].name;
    const made = await a.call(API.extraction.audioExtract, { type: 2, file_id: upload.data.file_id });
    expect(made.code, made.msg).toBe(0);
    const local = await finished(() => audios(a), made.data.id);
    // Named after the upload's material.
    expect(local).toMatchObject({ status: 3, desc: uploadName });
    const mp3 = await download(local.url, 'local.mp3');
    const info = await probe(mp3, 'mp3');
    expect(info.audio?.codec).toBe('mp3');
    expect(info.video).toBeUndefined();
    expect(Math.abs(info.duration - 5)).toBeLessThan(0.3);

    // A video without a sound track has nothing to extract.
    withoutSound(CLIP, SILENT);
    const silent = await uploadFile(a, 'video', SILENT);
    const none = await a.call(API.extraction.audioExtract, { type: 2, file_id: silent.data.file_id });
    expect(await finished(() => audios(a), none.data.id)).toMatchObject({ status: 4, reason: MSG.extractionFailed(MSG.extractNoSound, false) });

    await engine({ parse_engine: 'hybrid', parse_base_url: hybrid.url });
    const online = await a.call(API.extraction.audioExtract, { type: 1, link: share('https://v.douyin.com/pics/') });
    expect(online.code, online.msg).toBe(0);
    const fromMusic = await finished(() => audios(a), online.data.id);
    expect(fromMusic).toMatchObject({ status: 3, desc: '图文作品', cover: '' });
    expect((await probe(await download(fromMusic.url, 'music.mp3'), 'mp3')).audio?.codec).toBe('mp3');
    expect((await videos(b)).data.list.length).toBe(1);
    expect((await audios(b)).data).toMatchObject({ list: [], total: 0 });
  });

  it('saves a finished record to the material library as its own copy, for its owner only', async () => {
    const record = (await videos(a, 3)).data.list.at(-1);
    const name = [...record.desc].slice(0, LIMITS.analyseNameMaxChars).join('');
    expect(await b.call(API.extraction.saveToMaterial, { type: 'video', name, rid: record.id })).toMatchObject({ code: 1, msg: MSG.extractionRecordMissing });
    expect(await a.call(API.extraction.saveToMaterial, { type: 'audio', name, rid: record.id })).toMatchObject({ code: 1, msg: MSG.extractionRecordMissing });
    const failed = (await videos(a, 4)).data.list[0];
    expect(await a.call(API.extraction.saveToMaterial, { type: 'video', name, rid: failed.id })).toMatchObject({ code: 1, msg: MSG.extractionRecordMissing });

    const saved = await a.call(API.extraction.saveToMaterial, { type: 'video', name, rid: record.id });
    expect(saved.code, saved.msg).toBe(0);
    const material = (await a.call(API.material.list, { type: 'video', source: 2, page: 1, limit: 9 })).data.list;
    expect(material).toEqual([expect.objectContaining({ id: saved.data.id, name: '今天天气真好，一起去公园散步吧', source: 2, origin: 'analyse', type: 'video' })]);
    expect((await b.call(API.material.list, { page: 1, limit: 9 })).data.list.some((m: any) => m.origin === 'analyse')).toBe(false);

    const audio = (await audios(a, 3)).data.list[0];
    expect((await a.call(API.extraction.saveToMaterial, { type: 'audio', name: '', rid: audio.id })).code).toBe(0);
    expect((await a.call(API.material.list, { type: 'audio', source: 2, page: 1, limit: 9 })).data.list[0]).toMatchObject({ name: LIMITS.defaultWorkName, origin: 'analyse' });

    // Deleting the material leaves the record's own video playing.
    expect((await a.call(API.material.remove, { id: saved.data.id })).code).toBe(0);
    expect(await statusOf(material[0].url)).toBe(404);
    expect(await statusOf((await videos(a, 3)).data.list.at(-1).url)).toBe(200);
  });
});
