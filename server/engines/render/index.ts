/**
 * Video made on this machine without a model: an avatar's clip prepared at clone time and looped under speech
 * (multi-scene works, and the `local` video channel through ../lipsync), and videos from one still picture.
 */
export { loopSeconds, prepareAvatar, renderTalkingVideo, type PreparedAvatar } from './avatar-loop';
export { cameraMotionVideo, frameSize, pictureSize, STILL_SECONDS, stillClip } from './still-picture';
