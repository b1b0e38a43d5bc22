import { describe, expect, it } from 'vitest';
import { LIMITS, MSG, type Avatar } from '../../contract';
import { anyCloning, avatarPhase, checkCloneVideo, cloneOutcome, cloneFormProblem, createQuery, failureReason, orientationOf } from './avatar-view';
import { endedSince, formatDuration, formatSize } from '../../core';

const avatar = (over: Partial<Avatar> = {}): Avatar => ({ id: 1, name: 'a', url: '', cover: '', cover_small: '', source: 1, ...over });

describe('avatar view helpers', () => {
  it('reads the status', () => {
    expect(avatarPhase(avatar({ status: 1 }))).toBe('cloning');
    expect(avatarPhase(avatar({ status: 3 }))).toBe('ready');
    expect(avatarPhase(avatar({ status: 4 }))).toBe('failed');
    expect(avatarPhase(avatar())).toBe('ready');
    expect(anyCloning([avatar({ status: 3 }), avatar({ status: 1 })])).toBe(true);
    expect(anyCloning([avatar({ status: 3 }), avatar({ status: 4 })])).toBe(false);
    expect(anyCloning([])).toBe(false);
  });

  it('gives the failure reason, or a plain fallback', () => {
    expect(failureReason({ ...avatar({ status: 4 }), reason: '视频太短' } as Avatar)).toBe('视频太短');
    expect(failureReason(avatar({ status: 4 }))).toMatch(/重新克隆/);
  });

  it('maps orientation to hs (portrait by default)', () => {
    expect(orientationOf(avatar({ orientation: 1 }))).toBe(1);
    expect(orientationOf(avatar({ orientation: 2 }))).toBe(2);
    expect(orientationOf(avatar())).toBe(2);
    expect(createQuery(avatar({ id: 9, orientation: 1 }))).toEqual({ id: 9, hs: 1 });
  });

  it('formats durations', () => {
    expect(formatDuration(undefined)).toBe('');
    expect(formatDuration(0)).toBe('');
    expect(formatDuration(5.4)).toBe('00:05');
    expect(formatDuration(83)).toBe('01:23');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(5.25 * 1024 * 1024)).toBe('5.3 MB');
  });

  it('checks the clone video: MP4/MOV up to 500 MB', () => {
    expect(checkCloneVideo({ name: 'me.mp4', size: 1000 })).toBeNull();
    expect(checkCloneVideo({ name: 'ME.MOV', size: LIMITS.video.maxBytes })).toBeNull();
    expect(checkCloneVideo({ name: 'me.avi', size: 1000 })).toBe(MSG.avatarVideoInvalid);
    expect(checkCloneVideo({ name: 'mp4', size: 1000 })).toBe(MSG.avatarVideoInvalid);
    expect(checkCloneVideo({ name: 'me.mp4', size: LIMITS.video.maxBytes + 1 })).toBe(MSG.avatarVideoInvalid);
    expect(checkCloneVideo({ name: 'me.mp4', size: 0 })).toBe(MSG.avatarVideoInvalid);
  });

  it('asks for the name first, then the video', () => {
    expect(cloneFormProblem(' ', null)).toBe(MSG.avatarNameRequired);
    expect(cloneFormProblem('我', null)).toBe(MSG.avatarVideoRequired);
    expect(cloneFormProblem('我', 3)).toBeNull();
  });
});

describe('clones that end while the page is open (issue 33)', () => {
  it('tells of those that were cloning and are now ready or failed, and of no other', () => {
    const list = [{ id: 1, status: 3 }, { id: 2, status: 4 }, { id: 3, status: 1 }, { id: 4, status: 3 }];
    expect(endedSince(new Set([1, 2, 3]), list, cloneOutcome)).toEqual({ ready: [{ id: 1, status: 3 }], failed: [{ id: 2, status: 4 }] });
    expect(endedSince(new Set(), list, cloneOutcome)).toEqual({ ready: [], failed: [] });
  });
});
