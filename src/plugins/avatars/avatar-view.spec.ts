import { describe, expect, it } from 'vitest';
import { expectAnswers } from '../../../tests/support/react-host';
import { expectNameThenFile } from '../../../tests/support/clone-form';
import { LIMITS, MSG, type Avatar } from '../../contract';
import { VIDEO_SAMPLE, anyCloning, avatarPhase, checkCloneVideo, cloneOutcome, cloneFormProblem, createQuery, failureReason, orientationOf } from './avatar-view';
import { endedSince } from '../../core';

const avatar = (over: Partial<Avatar> = {}): Avatar => ({ id: 1, name: 'a', url: '', cover: '', cover_small: '', source: 1, ...over });

describe('avatar view helpers', () => {
  it('reads the status', () => {
    expectAnswers(avatarPhase, [
      [avatar({ status: 1 }), 'cloning'],
      [avatar({ status: 3 }), 'ready'],
      [avatar({ status: 4 }), 'failed'],
      [avatar(), 'ready'],
    ]);
    expectAnswers(anyCloning, [
      [[avatar({ status: 3 }), avatar({ status: 1 })], true],
      [[avatar({ status: 3 }), avatar({ status: 4 })], false],
      [[], false],
    ]);
  });

  it('gives the failure reason, or a plain fallback', () => {
    expect(failureReason({ ...avatar({ status: 4 }), reason: '视频太短' } as Avatar)).toBe('视频太短');
    expect(failureReason(avatar({ status: 4 }))).toMatch(/重新克隆/);
  });

  it('maps orientation to hs (portrait by default)', () => {
    expectAnswers(orientationOf, [
      [avatar({ orientation: 1 }), 1],
      [avatar({ orientation: 2 }), 2],
      [avatar(), 2],
    ]);
    expect(createQuery(avatar({ id: 9, orientation: 1 }))).toEqual({ id: 9, hs: 1 });
  });

  it('checks the clone video: MP4/MOV up to 500 MB', () => {
    expect(checkCloneVideo({ name: 'me.mp4', size: 1000 })).toBeNull();
    expect(checkCloneVideo({ name: 'ME.MOV', size: LIMITS.video.maxBytes })).toBeNull();
    expectAnswers(checkCloneVideo, [
      [{ name: 'me.avi', size: 1000 }, MSG.avatarVideoInvalid],
      [{ name: 'mp4', size: 1000 }, MSG.avatarVideoInvalid],
      [{ name: 'me.mp4', size: LIMITS.video.maxBytes + 1 }, MSG.avatarVideoInvalid],
      [{ name: 'me.mp4', size: 0 }, MSG.avatarVideoInvalid],
    ]);
  });

  it('words the video limits for the requirements and the upload hint', () => {
    expect(VIDEO_SAMPLE).toEqual({ formats: 'MP4 / MOV', size: '500MB', length: '5 秒 ~ 30 分钟', hint: 'MP4 / MOV，500MB 以内，时长 5 秒 ~ 30 分钟' });
  });

  it('asks for the name first, then the video', () => {
    expectNameThenFile(cloneFormProblem, MSG.avatarNameRequired, MSG.avatarVideoRequired);
  });
});

describe('clones that end while the page is open (issue 33)', () => {
  it('tells of those that were cloning and are now ready or failed, and of no other', () => {
    const list = [{ id: 1, status: 3 }, { id: 2, status: 4 }, { id: 3, status: 1 }, { id: 4, status: 3 }];
    expect(endedSince(new Set([1, 2, 3]), list, cloneOutcome)).toEqual({ ready: [{ id: 1, status: 3 }], failed: [{ id: 2, status: 4 }] });
    expect(endedSince(new Set(), list, cloneOutcome)).toEqual({ ready: [], failed: [] });
  });
});
