import { describe, expect, it } from 'vitest';
import { channelsFor, pickAvatar } from './oneclick-view';

const CHANNELS = [
  { api: 'fy', pictures: false },
  { api: 'lip', pictures: true },
  { api: 'local', pictures: true },
];

describe('one-click channels for the chosen avatar', () => {
  it('offers every channel for an avatar video, only those that render pictures for a photo', () => {
    expect(channelsFor(CHANNELS, { photo_id: 0 }).map((c) => c.api)).toEqual(['fy', 'lip', 'local']);
    expect(channelsFor(CHANNELS, { photo_id: 9 }).map((c) => c.api)).toEqual(['lip', 'local']);
  });

  it('moves a remote channel to the first that renders pictures when a photo is picked, and keeps one that can', () => {
    expect(pickAvatar('p9', { api: 'fy' }, CHANNELS)).toEqual({ video_id: 0, photo_id: 9, api: 'lip' });
    expect(pickAvatar('p9', { api: 'local' }, CHANNELS)).toEqual({ video_id: 0, photo_id: 9 });
    expect(pickAvatar('v3', { api: 'fy' }, CHANNELS)).toEqual({ video_id: 3, photo_id: 0 });
  });
});
