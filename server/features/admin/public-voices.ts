/**
 * Public voices an operator publishes (`voice publish`), removes (`voice remove`), and the few offline ones a fresh
 * install starts with, so a newcomer can make a video in the first minute without cloning a voice first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { FeatureContext } from '../../app-context';
import { publishLocalFile } from '../../infra/user-files';
import { VoicesRepository, startTraining } from '../voices';

/** A public voice trained on channel `api` from the audio file at `audio` (on this machine); public once trained. */
export async function publishVoice(ctx: Pick<FeatureContext, 'db' | 'storage' | 'queue'>, v: { name: string; audio: string; api: string }): Promise<number> {
  const { db, queue } = ctx;
  // Public voices are told apart by name only; a failed one does not hold its name.
  if (await new VoicesRepository(db).publicNameTaken(v.name)) throw new ApiError(MSG.publicNameTaken('声音', v.name));
  const key = await publishLocalFile(ctx, v.audio, 'voice');
  return db.tx(async (q) => {
    const voices = new VoicesRepository(q);
    const channel = await voices.voiceChannel(v.api);
    if (!channel || channel.engine === 'none') throw new ApiError(`声音渠道 ${v.api} 没有可用的引擎；先用 channel set 配置`);
    const fileId = await voices.fileIdOfKey(key);
    const voiceId = await voices.addVoice({ userId: null, name: v.name, api: v.api, fileId, audioKey: key });
    await startTraining(q, queue, { voiceId, userId: null, api: v.api, fileId });
    return voiceId;
  });
}

/**
 * The offline voices of a fresh install: the offline engine speaks each sample at the register it names, and the
 * sample trains like any published voice (the engine measures pitch and pace from it). The English one is chosen for
 * English scripts by itself; the Cantonese one speaks Cantonese where the user picks 粤语.
 */
export const SEEDED_PUBLIC_VOICES = [
  { name: '普通话女声', language: 'cmn', f0: 225, sample: '大家好，欢迎来到AI超级分身，输入一段文案，就能生成你的数字人视频。' },
  { name: '普通话男声', language: 'cmn', f0: 110, sample: '大家好，今天我们用三分钟，讲清楚数字人视频是怎么做出来的。' },
  { name: '粤语女声', language: 'yue', f0: 215, sample: '大家好，欢迎嚟到AI超级分身，输入一段文案就可以生成视频。' },
  { name: '英语男声', language: 'en-us', f0: 115, sample: 'Hello and welcome. Type a script, pick an avatar, and your video is ready in minutes.' },
] as const;

/** The setting that marks the seeding done: voices an operator removed are not seeded again. */
const SEEDED_MARK = 'public_voices_seeded';

/**
 * Seeds SEEDED_PUBLIC_VOICES once per install (the first process to claim the mark does it); answers the names seeded,
 * none when it was done before.
 */
export async function seedPublicVoices(ctx: Pick<FeatureContext, 'db' | 'storage' | 'queue' | 'speech' | 'settings'>): Promise<string[]> {
  if (!(await ctx.settings.claim(SEEDED_MARK))) return [];
  const { engine } = await ctx.speech.channelEngine('local');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-seed-voices-'));
  try {
    const seeded: string[] = [];
    for (const seed of SEEDED_PUBLIC_VOICES) {
      const sample = path.join(dir, `${seed.language}-${seed.f0}.mp3`);
      // A little under the engine's own pace (5.44 peaks a second): calmer, as presenters speak.
      const register = { remoteId: '', profile: { f0: seed.f0, syllablesPerSecond: 4.6, speechSeconds: 0 } };
      await engine.synthesize(seed.sample, register, { language: seed.language, rate: 1, volume: 1, pitch: 1, emotion: '' }, sample);
      await publishVoice(ctx, { name: seed.name, audio: sample, api: 'local' });
      seeded.push(seed.name);
    }
    return seeded;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Removes a public voice: gone from the list at once; works already made keep their sound (their own files). */
export async function removePublicVoice(ctx: Pick<FeatureContext, 'db'>, id: number): Promise<{ id: number; name: string }> {
  const removed = await new VoicesRepository(ctx.db).removePublic(id);
  if (!removed) throw new ApiError(`没有编号为 ${id} 的公共声音`);
  return removed;
}
