/**
 * A protocol peer for a HeyGem / Duix.Avatar face2face server (see server/engines/lipsync/heygem.ts for the
 * protocol and the version followed): a loopback HTTP server answering /easy/submit and /easy/query like the
 * Flask app does (HTTP 200, a sorted, indented JSON envelope sent as text/html), one job at a time with later
 * submissions refused as busy, a task forgotten once it has answered done or failed. A job really downloads its
 * audio_url and video_url over HTTP and makes a real mp4 with ffmpeg (the video looped under the audio; the
 * mouth is not moved, this peer is about the protocol). Like an operator's static server in front of the real
 * one, the peer also serves its result folder: GET /<result path>.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ffmpeg } from '../../../server/infra/media-probe';
import { startLoopback, stillWaitingAfter } from './loopback';

export interface HeyGemPeerTask {
  code: string;
  audioUrl: string;
  videoUrl: string;
  /** Queries still to answer `running` (from the `progressSteps` knob at submit time). */
  pollsLeft: number;
  steps: number;
  /** Set when the job's work is over: the result path, or the failure message. */
  outcome?: { result: string } | { error: string };
}

export interface HeyGemPeer {
  url: string;
  /** The folder result paths are relative to, as an operator would mount it (a channel's `result_dir`). */
  resultDir: string;
  /** Knob: a job answers `running` this many times, progress climbing in even steps, before its end (read at submit). */
  progressSteps: number;
  /** Knob: jobs submitted from now on end failed with this message after their work. */
  failWith: string | null;
  /** Knob: every connection is dropped without an answer, as when the server is down. */
  down: boolean;
  /** Knob: every answer waits this long first. */
  delayMs: number;
  /** Knob: the next request is answered with exactly this instead (a proxy's error page, a garbled body). */
  nextReply: { status: number; contentType: string; body: string } | null;
  /** The task table (the real server's task_dic). */
  tasks: Map<string, HeyGemPeerTask>;
  /** Every submission with the code it was answered. */
  submissions: { body: Record<string, unknown>; code: number }[];
  /** True while a job occupies the server (submissions are then refused). */
  busy(): boolean;
  /** Resolves when the jobs' work (downloads and ffmpeg) is over. */
  settled(): Promise<void>;
  /** Forgets every task, as a restarted server does. */
  restart(): void;
  close(): Promise<void>;
}

const CODE = { systemError: 9999, ok: 10000, busy: 10001, badParams: 10002, unknownTask: 10004 } as const;

/** Sorted keys, four-space indent, UTF-8 kept: how the Flask app's json.dumps writes its answers. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
  return value;
}

function answer(res: http.ServerResponse, code: number, success: boolean, msg: unknown, data: Record<string, unknown> = {}): void {
  const text = JSON.stringify(sorted({ code, success, msg, data }), null, 4);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function download(url: string, file: string): Promise<void> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
}

export async function startHeyGemPeer(): Promise<HeyGemPeer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aisa-heygem-peer-'));
  const resultDir = path.join(dir, 'temp');
  await fs.mkdir(resultDir);
  const tasks = new Map<string, HeyGemPeerTask>();
  const work = new Set<Promise<void>>();

  const ended = (t: HeyGemPeerTask) => t.outcome !== undefined && t.pollsLeft === 0;

  async function runJob(task: HeyGemPeerTask, failWith: string | null): Promise<void> {
    const jobDir = await fs.mkdtemp(path.join(dir, 'job-'));
    const audio = path.join(jobDir, 'audio');
    const video = path.join(jobDir, 'video');
    try {
      await download(task.audioUrl, audio).catch((e: Error) => Promise.reject(new Error(`[${task.code}]音频下载失败: ${e.message}`)));
      await download(task.videoUrl, video).catch((e: Error) => Promise.reject(new Error(`[${task.code}]视频下载失败: ${e.message}`)));
      const name = `${task.code}-r.mp4`;
      await ffmpeg([
        '-stream_loop', '-1', '-i', video, '-i', audio, '-map', '0:v:0', '-map', '1:a:0', '-shortest',
        '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', path.join(resultDir, name),
      ]).catch((e: Error) => Promise.reject(new Error(`[${task.code}]视频合成失败: ${e.message}`)));
      task.outcome = failWith === null ? { result: `/${name}` } : { error: failWith };
    } catch (err) {
      task.outcome = { error: (err as Error).message };
    } finally {
      await fs.rm(jobDir, { recursive: true, force: true });
    }
  }

  function submit(body: Buffer, res: http.ServerResponse) {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      // The real app parses before its try block: Flask answers its HTML error page.
      res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end('<!doctype html><title>500 Internal Server Error</title><h1>Internal Server Error</h1>');
    }
    const reply = (code: number, success: boolean, msg: unknown) => {
      peer.submissions.push({ body: json, code });
      answer(res, code, success, msg);
    };
    for (const field of ['audio_url', 'video_url', 'code']) {
      if (json[field] === undefined || json[field] === '') return reply(CODE.badParams, false, `${field}参数缺失`);
    }
    if (peer.busy()) return reply(CODE.busy, true, '忙碌中');
    const task: HeyGemPeerTask = {
      code: String(json.code), audioUrl: String(json.audio_url), videoUrl: String(json.video_url),
      pollsLeft: peer.progressSteps, steps: peer.progressSteps,
    };
    tasks.set(task.code, task);
    const job = runJob(task, peer.failWith);
    work.add(job);
    void job.finally(() => work.delete(job));
    // The real app answers success with the code number as its msg.
    reply(CODE.ok, true, CODE.ok);
  }

  function query(url: URL, res: http.ServerResponse) {
    const code = url.searchParams.get('code') ?? '';
    const task = tasks.get(code);
    if (!task) return answer(res, CODE.unknownTask, true, '任务不存在');
    if (task.pollsLeft > 0) task.pollsLeft -= 1;
    const data = { code, status: 1, progress: Math.floor((100 * (task.steps - task.pollsLeft)) / (task.steps + 1)), result: '', msg: '' };
    if (ended(task)) {
      tasks.delete(code);
      const outcome = task.outcome!;
      if ('result' in outcome) Object.assign(data, { status: 2, progress: 100, result: outcome.result });
      else Object.assign(data, { status: 3, msg: outcome.error });
    }
    answer(res, CODE.ok, true, '', data);
  }

  async function serveResult(url: URL, res: http.ServerResponse) {
    const file = path.join(resultDir, decodeURIComponent(url.pathname));
    const stat = file.startsWith(`${resultDir}${path.sep}`) ? await fs.stat(file).catch(() => undefined) : undefined;
    if (!stat?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end('<h1>404 Not Found</h1>');
    }
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': stat.size });
    res.end(await fs.readFile(file));
  }

  const loop = await startLoopback(async (req, body, res) => {
    if (peer.down) return void req.socket.destroy();
    if (peer.delayMs > 0 && !(await stillWaitingAfter(res, peer.delayMs))) return;
    if (peer.nextReply) {
      const { status, contentType, body: text } = peer.nextReply;
      peer.nextReply = null;
      res.writeHead(status, { 'content-type': contentType });
      return void res.end(text);
    }
    const url = new URL(req.url ?? '/', 'http://peer');
    if (req.method === 'POST' && url.pathname === '/easy/submit') return submit(body, res);
    if (req.method === 'GET' && url.pathname === '/easy/query') return query(url, res);
    if (req.method === 'GET') return serveResult(url, res);
    res.writeHead(405, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<h1>Method Not Allowed</h1>');
  });

  const peer: HeyGemPeer = {
    url: loop.url, resultDir, progressSteps: 0, failWith: null, down: false, delayMs: 0, nextReply: null, tasks, submissions: [],
    busy: () => [...tasks.values()].some((t) => !ended(t)),
    settled: async () => {
      while (work.size > 0) await Promise.all([...work]);
    },
    restart: () => tasks.clear(),
    close: async () => {
      await loop.close();
      await peer.settled();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
  return peer;
}
