/** What the one-click server specs share: their media, their three-scene storyboard, a work followed to its end. */
import path from 'node:path';
import { API, WorkStatus } from '../../src/contract';
import type { ApiTestClient } from './app';
import { ffmpegCached } from './media';
import { until } from './wait';

/** A still, flat-coloured avatar video (nothing like the B-roll picture), and colour bars as the B-roll picture. */
export const oneclickMedia = (dir: string) => ({
  still: ffmpegCached(path.join(dir, 'still.mp4'), [
    '-f', 'lavfi', '-i', 'color=c=0x3c6e8f:s=360x640:r=25', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono',
    '-t', '5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac',
  ]),
  bars: ffmpegCached(path.join(dir, 'bars.png'), ['-f', 'lavfi', '-i', 'smptehdbars=size=720x1280', '-frames:v', '1']),
});

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
