/**
 * The offline lip-sync channel (issue 11) through the browser: a public avatar filmed from a real face, a
 * text-driven work on 本地口型 chosen in the channel dialog (whose description says it is an approximation made on
 * this machine), the works list's waiting line, a playable mp4 whose mouth the landmark detector sees open with the
 * words and shut in the pauses; frames from it side by side in PNGs under SHOTS_DIR (default /tmp/shots-lipsync).
 * A work on a faceless avatar renders as the loop and says why on its card.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, type Avatar, type Voice } from '../../src/contract';
import { closeLandmarkWorkers } from '../../server/engines/lipsync';
import { point } from '../../server/engines/lipsync/face-track';
import { probe } from '../../server/infra/media-probe';
import type { ApiTestClient } from '../support/app';
import { makeFaceVideo, makeFacelessVideo } from '../support/face-media';
import { openChannelDialog, downloadPlayable, pickCreateAvatar, pickCreateVoice, publicAvatar, publicAvatars, trainedPublicVoices, typeScript, useJourney, workCard } from '../support/journey';
import { measureLips } from '../support/lip-measure';
import { FFMPEG, makeSpeech } from '../support/media';

const USERNAME = '13800009301';
const SHOTS_DIR = process.env.SHOTS_DIR ?? '/tmp/shots-lipsync';
const FACE_AVATAR = '公共主播·真人正脸';
const FACELESS_AVATAR = '公共·测试图案';
const VOICE_NAME = '公共·口型女声';
/** Messages a work on an avatar without a usable face may show on its card. */
const NO_FACE_NOTES = [MSG.lipSyncNoFace, MSG.lipSyncFaceSmall, MSG.lipSyncFaceTurned, MSG.lipSyncFaceUnsteady, MSG.lipSyncAnalysisFailed];

const { server, apiClient, loggedInPage, mediaDir } = useJourney({
  users: { [USERNAME]: 10_000 },
  arrange: publicAvatars({
    [FACE_AVATAR]: (dir) => makeFaceVideo(path.join(dir, 'face.mp4'), { width: 480, height: 640, seconds: 8 }),
    [FACELESS_AVATAR]: (dir) => makeFacelessVideo(path.join(dir, 'pattern.mp4'), { width: 480, height: 640, seconds: 6 }),
  }),
});
let dir: string;
let client: ApiTestClient;
const avatars: Record<string, Avatar> = {};
let voice: Voice;

beforeAll(async () => {
  dir = mediaDir();
  const sample = await makeSpeech(path.join(dir, 'sample.mp3'), '大家好，我是今天的主持人，欢迎收看我们的节目。');
  await server.admin('voice', 'publish', sample, '--name', VOICE_NAME);

  client = await apiClient(USERNAME);
  // Both are portrait (竖屏) and ready (arranged before the server started).
  for (const name of [FACE_AVATAR, FACELESS_AVATAR]) avatars[name] = await publicAvatar(client, name);
  voice = (await trainedPublicVoices(client, VOICE_NAME)).find((v) => v.name === VOICE_NAME)!;
}, 400_000);

afterAll(() => closeLandmarkWorkers());

/** Frames `picked` of `video`, each cropped by `crop` (ffmpeg crop=…) and scaled to `height`, side by side in one PNG. */
function sideBySide(video: string, picked: number[], crop: string, height: number, out: string): void {
  const select = picked.map((n) => `eq(n\\,${n})`).join('+');
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-i', video,
    '-vf', `select='${select}',${crop},scale=-2:${height}:flags=lanczos,pad=iw+8:ih:4:0:white,tile=${picked.length}x1`,
    '-frames:v', '1', '-vsync', '0', out]);
}

describe('本地口型 (offline lip-sync)', () => {
  it('text-driven on a real face: the dialog tells the truth, the work plays, and its mouth opens with the words and shuts in the pauses', { timeout: 600_000 }, async () => {
    const { page, context } = await loggedInPage(USERNAME, '/create');
    await page.waitForSelector('[data-testid=create-panel]');
    await page.waitForSelector('.se-surface .monaco-editor .view-lines', { timeout: 30_000 });
    await page.fill('[data-testid=create-name]', '口型演示');
    // Pauses give the video moments of silence to compare with speech.
    await typeScript(page, '大家好，欢迎来到我的直播间。', 1, '今天给大家带来一款新品，', 1, '性价比非常高，喜欢的朋友不要错过。');

    await pickCreateAvatar(page, FACE_AVATAR, '竖屏');
    await page.click('[data-testid=create-tab-voice]');
    await pickCreateVoice(page, VOICE_NAME);

    await openChannelDialog(page);
    const lip = page.locator('[data-testid=create-channel-lip]');
    const description = (await lip.textContent()) ?? '';
    expect(description).toContain('本地口型');
    // What the channel is: made on this machine, an approximation, and what it needs.
    expect(description).toContain('本机');
    expect(description).toContain('近似');
    expect(description).toContain('正脸');
    await lip.click();
    await page.click('[data-testid=create-channel-confirm]');
    await page.waitForSelector('.cr-alert >> text=' + MSG.submitAlert, { timeout: 90_000 });
    await page.click('.cr-alert >> text=去作品页');
    await page.waitForSelector('[data-testid=works-tab-avatar][aria-selected=true]');

    const works = (await client.call(API.works.list, { page: 1, limit: 20 })).data.list as { id: number; api_key: string }[];
    expect(works[0]).toMatchObject({ api_key: 'lip' });
    const card = workCard(works[0]!.id);
    // While it renders, the card's waiting line is the channel's own.
    await page.waitForSelector(`${card}[data-status="3"], ${card} [data-testid=work-waiting]`);
    if ((await page.locator(`${card}[data-status="3"]`).count()) === 0) {
      expect(await page.textContent(`${card} [data-testid=work-waiting]`)).toContain(MSG.lipSyncWaiting);
    }
    const video = path.join(dir, 'lipsync.mp4');
    await downloadPlayable(page, card, video, 400_000);
    expect(await page.locator(`${card} [data-testid=work-note]`).count()).toBe(0);
    expect((await probe(video, 'mp4')).video).toMatchObject({ codec: 'h264', width: 480, height: 640 });
    await context.close();

    // The detector reads the mouth in every frame of the downloaded file and sets it beside the file's own sound.
    const { track, openings, loud, follows } = await measureLips(video);
    const frames = openings.length;
    const byLoudness = [...loud.keys()].filter((f) => f < frames && track.weight[f]! > 0).sort((x, y) => loud[x]! - loud[y]!);
    const spread = (list: number[]) => list.reduce<number[]>((kept, f) => (kept.length < 4 && kept.every((k) => Math.abs(k - f) > 10) ? [...kept, f] : kept), []);
    const silent = spread(byLoudness);
    const spoken = spread([...byLoudness].reverse());
    const mean = (fs: number[]) => fs.reduce((s, f) => s + openings[f]!, 0) / fs.length;
    console.log(`mouth ~ loudness ${follows.toFixed(2)}; opening spoken ${spoken.map((f) => openings[f]!.toFixed(2))} silent ${silent.map((f) => openings[f]!.toFixed(2))}`);
    expect(follows).toBeGreaterThan(0.5);
    expect(mean(spoken) - mean(silent)).toBeGreaterThan(0.1);
    expect(Math.min(...spoken.map((f) => openings[f]!))).toBeGreaterThan(Math.max(...silent.map((f) => openings[f]!)));

    // The frames side by side, in time order, to look at: whole frames, and the lower face enlarged.
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    fs.copyFileSync(video, path.join(SHOTS_DIR, 'lipsync.mp4'));
    const picked = [...spoken, ...silent].sort((x, y) => x - y);
    console.log(`frames ${picked.map((f) => `${f}${spoken.includes(f) ? ' speech' : ' silence'}`).join(', ')}`);
    sideBySide(video, picked, 'null', 320, path.join(SHOTS_DIR, 'lipsync-frames.png'));
    const [nx, ny] = point(track, picked[0]!, 33), [, chinY] = point(track, picked[0]!, 8);
    const size = Math.min(track.width, track.height, Math.round((chinY - ny) * 2.2 / 2) * 2);
    const clamp = (v: number, max: number) => Math.max(0, Math.min(max - size, Math.round(v)));
    const crop = `crop=${size}:${size}:${clamp(nx - size / 2, track.width)}:${clamp(ny - size * 0.25, track.height)}`;
    sideBySide(video, picked, crop, 240, path.join(SHOTS_DIR, 'lipsync-mouths.png'));
    for (const shot of ['lipsync-frames.png', 'lipsync-mouths.png']) expect(fs.statSync(path.join(SHOTS_DIR, shot)).size).toBeGreaterThan(10_000);
  });

  it('a faceless avatar renders as the loop, and its card says why', { timeout: 300_000 }, async () => {
    const reply = await client.call(API.works.create, { name: '无人脸口型', api: 'lip', video_id: avatars[FACELESS_AVATAR]!.id, user_voice_id: voice.id, text: '大家好，欢迎来到直播间。' });
    expect(reply.code, reply.msg).toBe(0);
    const { page, context } = await loggedInPage(USERNAME, '/works');
    const card = workCard(reply.data.id);
    await downloadPlayable(page, card, path.join(dir, 'faceless.mp4'), 240_000);
    const note = ((await page.textContent(`${card} [data-testid=work-note]`)) ?? '').trim();
    expect(NO_FACE_NOTES).toContain(note);
    await context.close();
  });
});
