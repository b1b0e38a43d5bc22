/**
 * The offline lip-sync engine (CPU only, no network): analyse an avatar's face once at clone time, then render
 * works whose mouth opens and closes with the speech. When analysis says `found: false`, render the loop
 * instead and show `reason` on the work's card.
 */
export { analyseAvatarFaces, closeLandmarkWorkers, NO_FACE_REASONS, type FaceAnalysis } from './analyse';
export { mouthCurve, type MouthCurve } from './mouth-curve';
export { renderLipSync, type LipSyncJob, type LipSyncResult } from './render';
export { markedMouthTrack, writeFaceTrack, FPS } from './face-track';
