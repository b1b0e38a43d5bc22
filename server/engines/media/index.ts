/**
 * The media engine: every ffmpeg command line the features and the offline video engine need, each written once
 * and named by what it does. Features call these and never build ffmpeg arguments themselves (media.spec.ts
 * checks). Inputs are local files read with the demuxer of their extension (see infra/media-probe).
 */
export * from './sound';
export * from './video';
export * from './captions';
export * from './frames';
/** Features that count frames (scene cuts, covers) count them at the rate every video is encoded at. */
export { FPS } from './common';
