/**
 * A loopback peer speaking the OpenAI-compatible transcription API (whisper.cpp's server, faster-whisper-server /
 * speaches, OpenAI): POST {base}/v1/audio/transcriptions, multipart `file`, `model`, `language`,
 * `response_format`. It really listens: the segments it answers are the spans of speech in the uploaded audio,
 * found with ffmpeg's silencedetect (the text of each span is the test's, in order, as a recognizer's would be);
 * so a clip with three spoken sentences gets three segments at their real times, and a silent one gets none.
 * It can also answer as a provider that gives no segments (plain JSON text), or fail.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { probe } from '../../../server/infra/media-probe';
import { silencesIn } from '../media';
import { parseMultipart, peerWorkspace, sendJson, startLoopback } from './loopback';

export interface TranscriptionRequest {
  authorization: string | undefined;
  model: string;
  language: string;
  responseFormat: string;
  /** Seconds of the audio it got. */
  seconds: number;
}

export type TranscriptionBehaviour = 'segments' | 'no-segments' | 'error';

export interface TranscriptionPeer {
  url: string;
  apiKey: string;
  requests: TranscriptionRequest[];
  /** What each found span of speech is said to say, in order (repeated when the audio has more spans). */
  texts: string[];
  behave(b: TranscriptionBehaviour): void;
  close(): Promise<void>;
}

/** Spans of speech: what lies between the silences ffmpeg finds (shorter than MIN_SPAN are clicks, not words). */
const MIN_SPAN = 0.25;

export function speechSpans(silences: { start: number; end: number }[], total: number): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let at = 0;
  for (const s of [...silences, { start: total, end: total }]) {
    if (s.start - at >= MIN_SPAN) spans.push({ start: Math.round(at * 100) / 100, end: Math.round(Math.min(s.start, total) * 100) / 100 });
    at = Math.max(at, s.end);
  }
  return spans;
}

export async function startTranscriptionPeer(apiKey = 'asr-peer-key'): Promise<TranscriptionPeer> {
  const { dir } = await peerWorkspace('transcription-peer-');
  let behaviour: TranscriptionBehaviour = 'segments';
  let n = 0;
  const peer: TranscriptionPeer = {
    url: '',
    apiKey,
    requests: [],
    texts: ['你好'],
    behave: (b) => {
      behaviour = b;
    },
    close: async () => undefined,
  };
  const server = await startLoopback(async (req, body, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return sendJson(res, 404, { error: { message: 'not found' } });
    if (req.headers.authorization !== `Bearer ${apiKey}`) return sendJson(res, 401, { error: { message: 'Incorrect API key provided' } });
    const form = await parseMultipart(req, body);
    const file = form?.get('file');
    if (!form || !(file instanceof Blob) || !form.get('model')) return sendJson(res, 400, { error: { message: 'file and model are required' } });
    const audio = path.join(dir, `upload-${++n}.wav`);
    await fs.writeFile(audio, Buffer.from(await file.arrayBuffer()));
    const seconds = (await probe(audio, 'wav')).duration;
    peer.requests.push({
      authorization: req.headers.authorization, model: String(form.get('model')), language: String(form.get('language') ?? ''),
      responseFormat: String(form.get('response_format') ?? 'json'), seconds,
    });
    if (behaviour === 'error') return sendJson(res, 500, { error: { message: 'model crashed' } });
    const spans = speechSpans(silencesIn(audio, { noiseDb: -35, minSeconds: 0.3 }), seconds);
    const segments = spans.map((s, i) => ({ id: i, start: s.start, end: s.end, text: ` ${peer.texts[i % peer.texts.length]}` }));
    const text = segments.map((s) => s.text.trim()).join('');
    if (behaviour === 'no-segments' || form.get('response_format') !== 'verbose_json') return sendJson(res, 200, { text });
    sendJson(res, 200, { task: 'transcribe', language: String(form.get('language') || 'chinese'), duration: seconds, text, segments });
  });
  peer.url = server.url;
  peer.close = server.close;
  return peer;
}
