/**
 * A protocol peer for MiniMax's music API: a loopback HTTP server that speaks POST /v1/music_generation and
 * POST /v1/lyrics_generation with Bearer auth, answers errors as base_resp.status_code on HTTP 200 as the service
 * does, and checks each request's shape (model, prompt, lyrics required for a song, is_instrumental, output_format,
 * audio_setting). The music is real: a few seconds of a stereo chord as mp3, sent as hex or as a link this peer serves
 * (GET /files/<n>.mp3), as output_format asks.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ffmpeg } from '../../../server/infra/media-probe';
import { parseJsonBody, sendJson, startLoopback } from './loopback';

export const MUSIC_MODELS = ['music-2.6', 'music-2.5+', 'music-2.5', 'music-2.0'];
const SAMPLE_RATES = [16000, 24000, 32000, 44100];
const BITRATES = [32000, 64000, 128000, 256000];

export interface MusicPeer {
  url: string;
  apiKey: string;
  /** Seconds of each answer's music. */
  seconds: number;
  /** Knob: the next N calls answer HTTP 502. */
  httpErrorNext: number;
  /** Knob: the next music_generation answers this base_resp code (0 = behave normally). */
  failNextCode: number;
  /** Knob: the next music_generation answers audio that is no audio (bytes of text). */
  garbageNext: boolean;
  /** Every music_generation and lyrics_generation body it accepted or refused. */
  music: Record<string, unknown>[];
  lyrics: Record<string, unknown>[];
  /** What was wrong with each refused request (a correct client leaves it empty). */
  shapeErrors: string[];
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

const baseResp = (code: number, msg: string) => ({ status_code: code, status_msg: msg });

/** What lyrics_generation writes: a short song with section tags. */
const WRITTEN = '[Verse]\n晨光洒在窗台上\n微风轻轻把梦吹响\n\n[Chorus]\n向前走吧不要回头\n每一步都是新的远方';

export async function startMusicPeer(apiKey = 'music-test-key', seconds = 6): Promise<MusicPeer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aisa-music-peer-'));
  const made = new Map<number, string>();
  let next = 1;

  async function song(secs: number): Promise<Buffer> {
    const file = path.join(dir, `song-${secs}.mp3`);
    try {
      return await fs.readFile(file);
    } catch {
      // A chord (A3, C#4, E4) and a bright 3 kHz partial, with a slow swell: music-like, steady enough to measure, and
      // with a band (3 kHz) where a test can hear it apart from speech.
      const chord = [220, 277.18, 329.63, 3000].map((hz) => `sin(2*PI*${hz}*t)`).join('+');
      await ffmpeg([
        '-f', 'lavfi', '-i', `aevalsrc=0.15*(${chord})*(0.75+0.25*sin(2*PI*0.5*t)):s=44100:c=stereo:d=${secs}`,
        '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', file,
      ]);
      return fs.readFile(file);
    }
  }

  const refuse = (res: Parameters<typeof sendJson>[0], what: string) => {
    peer.shapeErrors.push(what);
    sendJson(res, 200, { base_resp: baseResp(2013, `invalid params, ${what}`) });
  };

  const generate = async (json: Record<string, unknown>, res: Parameters<typeof sendJson>[0]) => {
    peer.music.push(json);
    if (typeof json.model !== 'string' || !MUSIC_MODELS.includes(json.model)) return refuse(res, 'model');
    if (typeof json.prompt !== 'string' || !json.prompt.trim() || [...json.prompt].length > 2000) return refuse(res, 'prompt');
    if (json.is_instrumental !== undefined && typeof json.is_instrumental !== 'boolean') return refuse(res, 'is_instrumental');
    const instrumental = json.is_instrumental === true;
    if (!instrumental && (typeof json.lyrics !== 'string' || !json.lyrics.trim() || [...json.lyrics].length > 3500)) return refuse(res, 'lyrics');
    if (json.output_format !== undefined && json.output_format !== 'url' && json.output_format !== 'hex') return refuse(res, 'output_format');
    const as = json.audio_setting as Record<string, unknown> | undefined;
    if (as !== undefined) {
      if (typeof as !== 'object' || as === null) return refuse(res, 'audio_setting');
      if (as.sample_rate !== undefined && !SAMPLE_RATES.includes(as.sample_rate as number)) return refuse(res, 'sample_rate');
      if (as.bitrate !== undefined && !BITRATES.includes(as.bitrate as number)) return refuse(res, 'bitrate');
      if (as.format !== undefined && as.format !== 'mp3') return refuse(res, 'this peer answers format=mp3 only');
    }
    if (peer.failNextCode) {
      const code = peer.failNextCode;
      peer.failNextCode = 0;
      return sendJson(res, 200, { base_resp: baseResp(code, code === 1026 ? 'input new_sensitive' : 'error') });
    }
    let audio = await song(peer.seconds);
    if (peer.garbageNext) {
      peer.garbageNext = false;
      audio = Buffer.from('not audio at all, just some text that is long enough to look like a file');
    }
    let answer: string;
    if (json.output_format === 'url') {
      const n = next++;
      made.set(n, path.join(dir, `made-${n}.mp3`));
      await fs.writeFile(made.get(n)!, audio);
      answer = `${peer.url}/files/${n}.mp3`;
    } else {
      answer = audio.toString('hex');
    }
    sendJson(res, 200, {
      data: { audio: answer, status: 2 },
      trace_id: 'peer-trace',
      extra_info: { music_duration: peer.seconds * 1000, music_sample_rate: 44100, music_channel: 2, bitrate: 128000, music_size: audio.length },
      base_resp: baseResp(0, 'success'),
    });
  };

  const writeLyrics = (json: Record<string, unknown>, res: Parameters<typeof sendJson>[0]) => {
    peer.lyrics.push(json);
    if (json.mode !== 'write_full_song' && json.mode !== 'edit') return refuse(res, 'mode');
    if (json.prompt !== undefined && (typeof json.prompt !== 'string' || [...json.prompt].length > 2000)) return refuse(res, 'prompt');
    if (json.title !== undefined && typeof json.title !== 'string') return refuse(res, 'title');
    sendJson(res, 200, { song_title: (json.title as string) || '晨光', style_tags: 'Pop, Warm', lyrics: WRITTEN, base_resp: baseResp(0, 'success') });
  };

  const loop = await startLoopback(async (req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    peer.requests.push({ method: req.method ?? '', path: url.pathname });
    const file = /^\/files\/(\d+)\.mp3$/.exec(url.pathname);
    if (req.method === 'GET' && file) {
      const local = made.get(Number(file[1]));
      if (!local) return sendJson(res, 404, { message: 'expired' });
      const bytes = await fs.readFile(local);
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': bytes.length });
      return void res.end(bytes);
    }
    if (peer.httpErrorNext > 0) {
      peer.httpErrorNext -= 1;
      res.writeHead(502, { 'content-type': 'text/html' });
      return void res.end('<html><body>502 Bad Gateway</body></html>');
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return sendJson(res, 200, { base_resp: baseResp(1004, 'login fail: invalid api key') });
    if (req.method !== 'POST') return sendJson(res, 404, { base_resp: baseResp(404, 'not found') });
    const json = parseJsonBody(req, body);
    if (!json) return refuse(res, 'expected application/json');
    if (url.pathname === '/v1/music_generation') return generate(json, res);
    if (url.pathname === '/v1/lyrics_generation') return writeLyrics(json, res);
    sendJson(res, 404, { base_resp: baseResp(404, 'not found') });
  });

  const peer: MusicPeer = {
    url: loop.url, apiKey, seconds, httpErrorNext: 0, failNextCode: 0, garbageNext: false, music: [], lyrics: [], shapeErrors: [], requests: [],
    close: async () => {
      await loop.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
  return peer;
}
