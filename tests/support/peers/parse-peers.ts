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
 */
import fs from 'node:fs/promises';
import type http from 'node:http';
import { sendJson, sleep, startLoopback } from './loopback';

export interface PeerPost {
  desc: string;
  /** Absent: a picture post. */
  videoUrl?: string;
  musicUrl?: string;
  coverUrl?: string;
  /** Answer only after this long (a slow engine). */
  slowMs?: number;
}

export interface ParsePeer {
  url: string;
  requests: { path: string; link: string }[];
  posts: Map<string, PeerPost>;
  close(): Promise<void>;
}

type Answer = (post: PeerPost | undefined, link: string, res: http.ServerResponse) => void;

async function startParsePeer(path: string, answer: Answer): Promise<ParsePeer> {
  const posts = new Map<string, PeerPost>();
  const requests: ParsePeer['requests'] = [];
  const server = await startLoopback(async (req, _body, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    if (req.method !== 'GET' || url.pathname !== path) return sendJson(res, 404, { detail: 'Not Found' });
    const link = url.searchParams.get('url') ?? '';
    requests.push({ path: url.pathname, link });
    const post = posts.get(link);
    if (post?.slowMs) await sleep(post.slowMs);
    answer(post, link, res);
  });
  return { ...server, requests, posts };
}

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
  });
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
