/**
 * Video generation: Kling (text or image to video, submitted then polled) when the operator configured it, and the
 * offline camera motion over a picture; the download of a finished video the engine answers by URL.
 */
export { DEFAULT_SHORT_SIDE, cameraMotionClip, motionFrames } from './camera-motion';
export { resolveKlingConfig, VIDEO_SETTING_KEYS, videoEngines } from './configure';
export { KlingClient, VideoGenError, type KlingConfig, type KlingTaskKind } from './kling';
export { downloadWithDeadline, ProviderUnreachable } from '../provider-http';
