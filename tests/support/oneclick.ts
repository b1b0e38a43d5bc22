/** What the one-click server specs share: their media, their cast, their three-scene storyboard, a work followed to its end. */
import path from 'node:path';
import { expect } from 'vitest';
import { API, WorkStatus } from '../../src/contract';
import type { ApiTestClient, TestApp } from './app';
import { ffmpegCached, makeSpeech } from './media';
import { readyAvatar } from './ready-avatar';
import { uploadFile } from './upload';
import { until } from './wait';

/** A still, flat-coloured avatar video (nothing like the B-roll picture), and colour bars as the B-roll picture. */
export const oneclickMedia = (dir: string) => ({
  still: ffmpegCached(path.join(dir, 'still.mp4'), [
    '-f', 'lavfi', '-i', 'color=c=0x3c6e8f:s=360x640:r=25', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono',
    '-t', '5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac',
  ]),
  bars: ffmpegCached(path.join(dir, 'bars.png'), ['-f', 'lavfi', '-i', 'smptehdbars=size=720x1280', '-frames:v', '1']),
});

/**
 * Two users with 5,000 credits (`phones`), the first one's avatar from the still video, a public voice, and the bars
 * uploaded by the first user as the B-roll picture.
 */
export async function oneclickCast(t: TestApp, phones: [string, string], dir: string, media: ReturnType<typeof oneclickMedia>) {
  const a = await t.user(phones[0], 5000);
  const b = await t.user(phones[1], 5000);
  const avatar = await readyAvatar(t, a, media.still, '一键主播');
  const voice: number = (await t.operator(API.admin.voicePublish, { name: '公共声音', audio: await makeSpeech(path.join(dir, 'sample.mp3'), '大家好，我是主持人。'), api: 'local' })).data.id;
  const up = await uploadFile(a, 'image', media.bars, '花园.png');
  expect(up.code, up.msg).toBe(0);
  const picture: string = up.data.url;
  return { a, b, avatar, voice, picture };
}

/** Avatar, B-roll of `picture`, avatar: one sentence each. */
export const gardenBoard = (picture?: string) => [
  { text: '大家好，今天聊聊春天的花园。', kind: 'avatar' },
  { text: '先看这片开满鲜花的草地。', kind: 'broll', image_url: picture, motion: 'in' },
  { text: '最后记得关注我们，下期再见。', kind: 'avatar' },
];

export const worksOf = (c: ApiTestClient) => c.call(API.works.list, { page: 1, limit: 50 }).then((r) => r.data.list as any[]);

/** The work once it has succeeded or failed. */
export const workEnded = (c: ApiTestClient, id: number) =>
  until(() => worksOf(c), (list) => [WorkStatus.Success, WorkStatus.Failed].includes(list.find((w) => w.id === id)?.status), 240_000, 400).then((list) => list.find((w) => w.id === id));
