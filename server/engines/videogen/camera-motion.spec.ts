/** The frames the offline camera-motion engine composes: the product's size, the size an operator sets, and a real render at the product's size (the specs of the features render at the tests' smaller size). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeImage, mediaDir } from '../../../tests/support/media';
import { tempDir } from '../../../tests/support/temp-dirs';
import { ConfigError, configFromEnv } from '../../infra/config';
import { probe } from '../../infra/media-probe';
import { DEFAULT_SHORT_SIDE, cameraMotionClip, motionFrames } from './camera-motion';

describe('camera-motion frames', () => {
  it('are 720 px on the short side unless the operator sets another even size from 240 to 1080 (RENDER_SHORT_SIDE)', () => {
    expect(DEFAULT_SHORT_SIDE).toBe(720);
    expect(motionFrames('16:9')).toEqual({ width: 1280, height: 720 });
    expect(motionFrames('9:16')).toEqual({ width: 720, height: 1280 });
    expect(motionFrames('1:1')).toEqual({ width: 720, height: 720 });
    expect(motionFrames('9:16', 360)).toEqual({ width: 360, height: 640 });
    expect(motionFrames('16:9', 480)).toEqual({ width: 854, height: 480 });
    expect(motionFrames('4:3')).toBeUndefined();
    expect(configFromEnv({}).renderShortSide).toBeUndefined();
    expect(configFromEnv({ RENDER_SHORT_SIDE: '480' }).renderShortSide).toBe(480);
    for (const bad of ['481', '200', '1440', 'big']) expect(() => configFromEnv({ RENDER_SHORT_SIDE: bad })).toThrow(ConfigError);
  });

  it('render at the product size by default', async () => {
    const picture = makeImage(path.join(mediaDir(), 'camera-motion-picture.png'), { width: 400, height: 300 });
    const output = path.join(tempDir('camera-motion-'), 'moving.mp4');
    const made = await cameraMotionClip({ first: { file: picture, ext: 'png' }, duration: 1, aspectRatio: '9:16', output });
    expect(made).toMatchObject({ width: 720, height: 1280 });
    expect((await probe(output, 'mp4')).video).toEqual({ codec: 'h264', width: 720, height: 1280 });
    expect(made.duration).toBeCloseTo(1, 1);
  });
});
