/**
 * Background music under a work, through real HTTP on both databases: a library track the operator published laid
 * under an audio-driven work on the local channel — heard in a pause of the speech (well above the silence floor) and
 * pressed down while the speech sounds, the work's length unchanged; a multi-scene mp3 gets it too; a track the user
 * may not pick is refused.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, WorkStatus } from '../../../src/contract';
import { DB_KINDS, useApp } from '../../../tests/support/app';
import { FFMPEG, levelDb, makeSpeech, makeTone, makeVideo, mediaDir } from '../../../tests/support/media';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { uploadFile } from '../../../tests/support/upload';
import { downloadTo } from '../../../tests/support/voices';
import { until } from '../../../tests/support/wait';
import { probe } from '../../infra/media-probe';

const dir = mediaDir();
const PAUSE = 3;

/** Speech, `PAUSE` seconds of silence, speech again: where each part lies, in seconds. */
async function speechWithPause(): Promise<{ file: string; firstEnd: number; secondStart: number }> {
  const said = await makeSpeech(path.join(dir, 'said.mp3'), '大家好，欢迎收看今天的节目，我们马上开始。');
  const { duration } = await probe(said, 'mp3');
  const file = path.join(dir, 'with-pause.mp3');
  spawnSync(FFMPEG, ['-y', '-i', said, '-f', 'lavfi', '-t', String(PAUSE), '-i', 'anullsrc=r=22050:cl=mono', '-i', said, '-filter_complex',
    '[0:a]aresample=22050,aformat=channel_layouts=mono[a];[1:a]aformat=channel_layouts=mono[b];[2:a]aresample=22050,aformat=channel_layouts=mono[c];[a][b][c]concat=n=3:v=0:a=1[out]',
    '-map', '[out]', '-c:a', 'libmp3lame', file]);
  return { file, firstEnd: duration, secondStart: duration + PAUSE };
}

describe.each(DB_KINDS)('background music under a work (%s)', (kind) => {
  const t = useApp(kind);

  it('lays a library track under the speech: heard in the pause, ducked under the words, the length unchanged', { timeout: 240_000 }, async () => {
    const a = await t.user('15800000001', 1000);
    const track = await t.operator(API.music.publish, { name: '高音测试曲', audio: makeTone(path.join(dir, 'tone.mp3'), { hz: 3000, seconds: 6 }) });
    expect(track.code).toBe(0);
    const avatar = await readyAvatar(t, a, makeVideo(path.join(dir, 'face.mp4'), { width: 640, height: 360, seconds: 5 }), '配乐主播');
    const speech = await speechWithPause();
    const audio = (await uploadFile(a, 'voice', speech.file)).data.file_id as number;
    const base = { name: '有背景音乐', api: 'local', video_id: avatar, voice_id: audio, drive: 'audio' };

    for (const bgm of ['lib-99999', 'abc', 'my-1']) expect(await a.call(API.works.create, { ...base, bgm }), bgm).toMatchObject({ code: 1, msg: MSG.musicTrackMissing });
    expect(await a.call(API.works.create, { ...base, bgm: `lib-${track.data.id}`, bgm_volume: 2 })).toMatchObject({ code: 1, msg: expect.stringContaining('背景音乐音量') });

    const made = await a.call(API.works.create, { ...base, bgm: `lib-${track.data.id}`, bgm_volume: 0.5 });
    expect(made.code, made.msg).toBe(0);
    const done = await until(() => a.call(API.works.list, { page: 1, limit: 10 }), (r) => [WorkStatus.Success, WorkStatus.Failed].includes(r.data.list.find((w: { id: number }) => w.id === made.data.id)?.status), 180_000, 500);
    const work = done.data.list.find((w: { id: number }) => w.id === made.data.id);
    expect(work.status, work.reason).toBe(WorkStatus.Success);
    const mp4 = await downloadTo(t, work.url, dir, 'mp4');
    const info = await probe(mp4, 'mp4');
    expect(info.video).toBeTruthy();
    expect(Math.abs(info.duration - (await probe(speech.file, 'mp3')).duration)).toBeLessThan(0.2);

    const wav = path.join(dir, `work-${kind}.wav`);
    spawnSync(FFMPEG, ['-y', '-i', mp4, '-vn', '-ac', '1', '-ar', '44100', wav]);
    const inPause = levelDb(wav, { from: speech.firstEnd + 0.8, to: speech.secondStart - 0.6, bandHz: 3000 });
    const underWords = levelDb(wav, { from: Math.max(LIMITS.music.bgmFadeInSeconds + 0.1, 0.3), to: speech.firstEnd - 0.3, bandHz: 3000 });
    expect(inPause).toBeGreaterThan(-40);
    expect(inPause - underWords).toBeGreaterThan(6);

    // A multi-scene work's mp3 (仅音频) gets it too.
    const content = [{ type: 'audio', file_id: audio, video_id: avatar }];
    const multi = await a.call(API.works.multi, { name: '多场景配乐', output_mode: 'audio', content: JSON.stringify(content), bgm: `lib-${track.data.id}`, bgm_volume: 0.5 });
    expect(multi.code, multi.msg).toBe(0);
    const listed = await until(() => a.call(API.works.list, { page: 1, limit: 10 }), (r) => [WorkStatus.Success, WorkStatus.Failed].includes(r.data.list.find((w: { id: number }) => w.id === multi.data.id)?.status), 120_000, 500);
    const audioWork = listed.data.list.find((w: { id: number }) => w.id === multi.data.id);
    expect(audioWork.status, audioWork.reason).toBe(WorkStatus.Success);
    const mp3 = await downloadTo(t, audioWork.url, dir, 'mp3');
    expect(levelDb(mp3, { from: speech.firstEnd + 0.8, to: speech.secondStart - 0.6, bandHz: 3000 })).toBeGreaterThan(-40);
    expect(await a.call(API.works.multi, { name: 'x', output_mode: 'audio', content: JSON.stringify(content), bgm: 'lib-99999' })).toMatchObject({ code: 1, msg: MSG.musicTrackMissing });
  });
});
