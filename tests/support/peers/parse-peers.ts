/**
 * Loopback peers for extraction: the two link-parse APIs and a media host (a CDN's stand-in).
 *
 * - The hybrid API of the Douyin/TikTok download service: `GET /api/hybrid/video_data?url=…&minimal=true` →
 *   `{code: 200, router, data: {type, platform, desc, cover_data: {cover: {url_list}}, music: {play_url: {url_list}},
 *   video_data: {wm_video_url, wm_video_url_HQ, nwm_video_url, nwm_video_url_HQ}}}`; a picture post carries
 *   `image_data` instead of `video_data`; a link it cannot parse gets HTTP 400 `{code: 400, message, router, params}`.
 * - The parse-video service: `GET /video/share/url/parse?url=…` → `{code: 200, msg: '解析成功', data: {author, title,
 *   video_url, music_url, cover_url, images}}`, or `{code: 201, msg}` for a link it cannot parse.
 *
 * Both look the share link up in the posts the test registers: a known video post, a picture post, an expired link
 * (unknown), or a slow one (answers after `slowMs`). Every request is recorded.
 *
 * The hybrid peer also reads profiles the test registers, through the service's per-platform web routes: Douyin's
 * `/api/douyin/web/get_sec_user_id?url=` → `{code: 200, data: "<sec_user_id>"}`, `handler_user_profile?sec_user_id=` →
 * `{data: {user: {nickname, signature, follower_count, …}}}` and `fetch_user_post_videos?sec_user_id=&max_cursor=&count=`
 * → `{data: {aweme_list: [{desc, statistics: {digg_count, …}}], has_more, max_cursor}}`; TikTok's the same under
 * `/api/tiktok/web/` (`fetch_user_profile?secUid=` → `{data: {userInfo: {user, stats: {followerCount}}}}`,
 * `fetch_user_post?secUid=&cursor=&count=` → `{data: {itemList: [{desc, stats: {diggCount}}]}}`). An unknown id gets 400.
 */
import { writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { tempDir } from '../temp-dirs';
import { sendJson, stillWaitingAfter, startLoopback } from './loopback';

export interface PeerPost {
  desc: string;
  /** Absent: a picture post. */
  videoUrl?: string;
  musicUrl?: string;
  coverUrl?: string;
  /** Answer only after this long (a slow engine). */
  slowMs?: number;
}

export interface PeerProfile {
  nickname: string;
  signature: string;
  followers: number;
  posts: { desc: string; likes: number }[];
}

export interface ParsePeer {
  url: string;
  requests: { path: string; link: string }[];
  posts: Map<string, PeerPost>;
  /** Profiles by their share link (the hybrid peer only). */
  profiles: Map<string, PeerProfile>;
  close(): Promise<void>;
}

type Answer = (post: PeerPost | undefined, link: string, res: http.ServerResponse) => void;
type ProfileRoute = (profile: PeerProfile, url: URL, res: http.ServerResponse) => void;

async function startParsePeer(path: string, answer: Answer, profileRoutes: Record<string, ProfileRoute> = {}): Promise<ParsePeer> {
  const posts = new Map<string, PeerPost>();
  const profiles = new Map<string, PeerProfile>();
  const requests: ParsePeer['requests'] = [];
  const secIds = () => [...profiles.keys()];
  const server = await startLoopback(async (req, _body, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    const fail = () => sendJson(res, 400, { code: 400, message: 'An error occurred.', router: url.pathname, params: Object.fromEntries(url.searchParams) });
    if (req.method === 'GET' && url.pathname.endsWith('/get_sec_user_id') && profileRoutes[url.pathname]) {
      const link = url.searchParams.get('url') ?? '';
      requests.push({ path: url.pathname, link });
      const index = secIds().indexOf(link);
      return index < 0 ? fail() : sendJson(res, 200, { code: 200, router: url.pathname, data: `MS4wLjABAAAA-peer-${index}` });
    }
    const profileRoute = profileRoutes[url.pathname];
    if (req.method === 'GET' && profileRoute) {
      const secId = url.searchParams.get('sec_user_id') ?? url.searchParams.get('secUid') ?? '';
      requests.push({ path: url.pathname, link: secId });
      const profile = profiles.get(secIds()[Number(/-peer-(\d+)$/.exec(secId)?.[1] ?? -1)] ?? '');
      return profile ? profileRoute(profile, url, res) : fail();
    }
    if (req.method !== 'GET' || url.pathname !== path) return sendJson(res, 404, { detail: 'Not Found' });
    const link = url.searchParams.get('url') ?? '';
    requests.push({ path: url.pathname, link });
    const post = posts.get(link);
    if (post?.slowMs && !(await stillWaitingAfter(res, post.slowMs))) return;
    answer(post, link, res);
  });
  return { ...server, requests, posts, profiles };
}

const secIdRoute: ProfileRoute = () => undefined; // answered before the routes: it maps a link to an id

/** The Douyin and TikTok profile routes of the download service, with the fields the real ones carry that we read. */
const PROFILE_ROUTES: Record<string, ProfileRoute> = {
  '/api/douyin/web/get_sec_user_id': secIdRoute,
  '/api/douyin/web/handler_user_profile': (p, url, res) =>
    sendJson(res, 200, { code: 200, router: url.pathname, data: { status_code: 0, user: { nickname: p.nickname, signature: p.signature, follower_count: p.followers, aweme_count: p.posts.length, total_favorited: String(p.posts.reduce((n, x) => n + x.likes, 0)) } } }),
  '/api/douyin/web/fetch_user_post_videos': (p, url, res) =>
    sendJson(res, 200, {
      code: 200, router: url.pathname,
      data: { status_code: 0, has_more: 0, max_cursor: 0, aweme_list: p.posts.slice(0, Number(url.searchParams.get('count') ?? 20)).map((x, i) => ({ aweme_id: String(7300000000000000100 + i), desc: x.desc, statistics: { digg_count: x.likes, comment_count: 3, share_count: 1 } })) },
    }),
  '/api/tiktok/web/get_sec_user_id': secIdRoute,
  '/api/tiktok/web/fetch_user_profile': (p, url, res) =>
    sendJson(res, 200, { code: 200, router: url.pathname, data: { statusCode: 0, userInfo: { user: { nickname: p.nickname, signature: p.signature }, stats: { followerCount: p.followers, videoCount: p.posts.length } } } }),
  '/api/tiktok/web/fetch_user_post': (p, url, res) =>
    sendJson(res, 200, { code: 200, router: url.pathname, data: { hasMore: false, cursor: '0', itemList: p.posts.map((x, i) => ({ id: String(7300000000000000200 + i), desc: x.desc, stats: { diggCount: x.likes, commentCount: 2 } })) } }),
};

export function startHybridPeer(): Promise<ParsePeer> {
  return startParsePeer('/api/hybrid/video_data', (post, link, res) => {
    const router = '/api/hybrid/video_data';
    if (!post) return sendJson(res, 400, { code: 400, message: 'An error occurred.', support: 'Please check the link', time: '2026-11-23 10:00:00', router, params: { url: link, minimal: true } });
    const common = {
      type: post.videoUrl ? '视频' : '图片',
      platform: 'douyin',
      video_id: '7300000000000000001',
      desc: post.desc,
      create_time: 1732330000,
      author: { nickname: '测试作者', uid: '1001' },
      music: post.musicUrl ? { title: '原声', play_url: { uri: post.musicUrl, url_list: [post.musicUrl] } } : null,
      statistics: { digg_count: 10 },
      cover_data: { cover: { url_list: post.coverUrl ? [post.coverUrl] : [] }, origin_cover: { url_list: [] }, dynamic_cover: { url_list: [] } },
      hashtags: null,
    };
    const media = post.videoUrl
      ? { video_data: { wm_video_url: `${post.videoUrl}?watermark=1`, wm_video_url_HQ: `${post.videoUrl}?watermark=1`, nwm_video_url: post.videoUrl, nwm_video_url_HQ: post.videoUrl } }
      : { image_data: { no_watermark_image_list: ['https://p3.example.com/1.jpeg'], watermark_image_list: [] } };
    sendJson(res, 200, { code: 200, router, data: { ...common, ...media } });
  }, PROFILE_ROUTES);
}

export function startParseVideoPeer(): Promise<ParsePeer> {
  return startParsePeer('/video/share/url/parse', (post, _link, res) => {
    if (!post) return sendJson(res, 200, { code: 201, msg: 'parse video id from share url fail' });
    sendJson(res, 200, {
      code: 200,
      msg: '解析成功',
      data: {
        author: { uid: '2002', name: '快手用户', avatar: '' },
        title: post.desc,
        video_url: post.videoUrl ?? '',
        music_url: post.musicUrl ?? '',
        cover_url: post.coverUrl ?? '',
        images: post.videoUrl ? [] : [{ url: 'https://p2.example.com/1.jpg', live_photo_url: '' }],
      },
    });
  });
}

export interface MediaHost {
  url: string;
  port: number;
  /** Paths the host was asked for. */
  hits: string[];
  /** Serves this file's bytes at `path`. */
  serve(path: string, file: string): void;
  /** Answers `path` with a redirect to `location`. */
  redirect(path: string, location: string): void;
  /** Answers `path` with a declared length past any cap, and no body. */
  huge(path: string): void;
  /** Sends headers at `path`, then nothing (a download that never finishes). */
  stall(path: string): void;
  close(): Promise<void>;
}

/** A CDN stand-in: files, redirects and oversized answers at the paths the test names; 404 otherwise. */
export async function startMediaHost(): Promise<MediaHost> {
  const files = new Map<string, string>();
  const redirects = new Map<string, string>();
  const huge = new Set<string>();
  const stalled = new Set<string>();
  const hits: string[] = [];
  const server = await startLoopback(async (req, _body, res) => {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    hits.push(path);
    const to = redirects.get(path);
    if (to) {
      res.writeHead(302, { location: to });
      return void res.end();
    }
    if (huge.has(path)) {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(600 * 1024 * 1024) });
      return void res.write(Buffer.alloc(1024));
    }
    if (stalled.has(path)) {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      return void res.write(Buffer.alloc(1024));
    }
    const file = files.get(path);
    if (!file) return sendJson(res, 404, { message: 'Not Found' });
    const bytes = await fs.readFile(file);
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
    res.end(bytes);
  });
  return {
    ...server,
    port: Number(new URL(server.url).port),
    hits,
    serve: (path, file) => void files.set(path, file),
    redirect: (path, location) => void redirects.set(path, location),
    huge: (path) => void huge.add(path),
    stall: (path) => void stalled.add(path),
  };
}

export interface GuardedMedia {
  /** For the spec's app (useApp): lets the host's port, and only its port, through the fetch guard. */
  overrides: { fetchLoopbackPorts?: number[] };
  host: MediaHost;
  trap: MediaHost;
}

/**
 * The media hosts of a share-link spec, started before its tests and closed after them: `host` serves the files,
 * `/v/not-video.mp4` among them (a web page named as a video), and `/v/inside.mp4` on it redirects to `trap`'s
 * `secret`, an internal address the guard must refuse.
 */
export function useGuardedMedia(secret: string): GuardedMedia {
  const media = { overrides: {} } as GuardedMedia;
  beforeAll(async () => {
    [media.host, media.trap] = await Promise.all([startMediaHost(), startMediaHost()]);
    media.overrides.fetchLoopbackPorts = [media.host.port];
    media.host.redirect('/v/inside.mp4', `http://127.0.0.1:${media.trap.port}/secret.mp4`);
    media.trap.serve('/secret.mp4', secret);
    const notVideo = path.join(tempDir('aisa-not-video-'), 'not-video.mp4');
    writeFileSync(notVideo, '<html>这不是视频</html>');
    media.host.serve('/v/not-video.mp4', notVideo);
  });
  afterAll(() => Promise.all([media.host, media.trap].map((h) => h?.close())));
  return media;
}
