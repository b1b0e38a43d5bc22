import { describe, expect, it } from 'vitest';
import { frameSize } from './still-picture';

describe('the frame of a talking picture', () => {
  it('scales a small picture up to the composing size, 720 px on its short side unless the operator set another', () => {
    expect(frameSize(800, 600)).toEqual({ width: 960, height: 720 });
    expect(frameSize(600, 800)).toEqual({ width: 720, height: 960 });
    expect(frameSize(360, 640)).toEqual({ width: 720, height: 1280 });
    expect(frameSize(360, 640, 480)).toEqual({ width: 480, height: 854 });
  });

  it('keeps a picture between the composing size and 1080 px at its own size, and scales a larger one down to 1080', () => {
    expect(frameSize(800, 600, 360)).toEqual({ width: 800, height: 600 });
    expect(frameSize(900, 1000)).toEqual({ width: 900, height: 1000 });
    expect(frameSize(4000, 3000)).toEqual({ width: 1440, height: 1080 });
    expect(frameSize(3000, 4000, 360)).toEqual({ width: 1080, height: 1440 });
  });

  it('makes even sizes and refuses a picture with no size', () => {
    expect(frameSize(1001, 999)).toEqual({ width: 1002, height: 1000 });
    expect(() => frameSize(0, 600)).toThrow('the picture has no size');
  });
});
