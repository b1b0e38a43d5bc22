import { motionFrames } from '../../server/engines/videogen';

/**
 * The short side of the frames the test servers compose (RENDER_SHORT_SIDE): the specs check the framing (the aspect,
 * the picture covering the frame, the face kept whole), not the size, and a quarter of the pixels is about a quarter
 * of the encoding. The product's default size is measured by `npm run bench` and checked by the config's spec.
 */
export const TEST_SHORT_SIDE = 360;

/** The frame a test server composes for an aspect ratio. */
export const testFrames = (aspectRatio: '16:9' | '9:16' | '1:1') => motionFrames(aspectRatio, TEST_SHORT_SIDE)!;
