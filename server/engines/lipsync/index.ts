/**
 * Lip sync: what features use of it, and nothing else. A video channel names its engine (CHANNEL_ENGINES.video),
 * and `lipSyncEngineFor` makes it from the channel's settings:
 * - `local` does not move the mouth: the avatar's loop under the speech (../render);
 * - `lipsync` is the offline engine (CPU only, no network; analyse.ts … render.ts here): an avatar's face is analysed
 *   once, then the mouth opens and closes with the speech; without a usable face it renders the loop and says why;
 * - `heygem` is a remote GPU server (heygem.ts), which the render job submits to and polls across its runs (remote.ts).
 * Pictures and video translation always use the offline engine: its face analysis and render are exported as they are.
 */
import { MSG, type TimedText } from '../../../src/contract';
import { renderTalkingVideo } from '../render';
import { HeyGemEngine, type HeyGemConfig } from './heygem';
import { renderLipSync } from './render';
import type { RemoteLipSyncEngine } from './remote';

export { analyseAvatarFaces, closeLandmarkWorkers, keepIdleLandmarkWorkers, NO_FACE_REASONS, pictureFaceBox, type FaceAnalysis, type FaceBox } from './analyse';
export { FPS } from '../media/common';
export { markedMouthTrack, readFaceTrack, writeFaceTrack } from './face-track';
export { renderLipSync, type LipSyncJob, type LipSyncResult } from './render';
export { HEYGEM_MSG } from './heygem';
export { engineConcurrency, engineSlot, LipSyncEngineError, type RemoteLipSyncEngine } from './remote';

/** The avatar's normalized video and the face track analyseAvatarFaces wrote for it, or why there is none. */
export type FaceInput = { video: string; faces: string } | { note: string };

/** A work for an engine on this machine: the avatar's loop (local files), the speech, where to write the mp4. */
export interface TalkingVideoJob {
  loop: string;
  audio: { file: string; ext: string };
  output: string;
  /** Whole seconds into the loop to start from (a random start keeps works of one avatar from all starting alike). */
  startAt?: number;
  /** For an engine that moves the mouth. */
  face?: FaceInput;
  /** The speech's timed text, when known (the offline engine rounds the lips where it says o, u, ü). */
  script?: readonly TimedText[];
  /** The share of the render done (0–1), from an engine that can tell (the offline lip sync, frame by frame). */
  onProgress?: (done: number) => void;
}

/** An engine on this machine: it renders while the job waits. */
export interface LocalLipSyncEngine {
  readonly kind: 'local';
  /** Whether it moves the mouth with the speech; then it wants the job's `face`. */
  readonly movesMouth: boolean;
  /** How long its render job may run, when the queue's default could be too short (undefined: the default). */
  renderJobSeconds(mediaSeconds: number): number | undefined;
  /** Writes an H.264/AAC mp4 cut to the speech; `note` says why the mouth was left as filmed, for the work's card. */
  render(job: TalkingVideoJob): Promise<{ duration: number; note?: string }>;
}

export type LipSyncEngine = LocalLipSyncEngine | RemoteLipSyncEngine;

const renderLoop = (job: TalkingVideoJob) => renderTalkingVideo(job.loop, job.audio.file, job.audio.ext, job.output, { startAt: job.startAt });

const AVATAR_LOOP: LocalLipSyncEngine = { kind: 'local', movesMouth: false, renderJobSeconds: () => undefined, render: renderLoop };

/**
 * A lip-synced render takes about its media time or more on a busy machine (bench g), and on expiry pg-boss stops
 * waiting for the handler and starts the job again beside it: a fixed start (analysing an avatar never analysed,
 * the speech) plus this many times the media time.
 */
const OFFLINE_RENDER_START_SECONDS = 60;
const OFFLINE_RENDER_PER_SECOND = 3;

const OFFLINE_LIPSYNC: LocalLipSyncEngine = {
  kind: 'local',
  movesMouth: true,
  renderJobSeconds: (mediaSeconds) => OFFLINE_RENDER_START_SECONDS + OFFLINE_RENDER_PER_SECOND * mediaSeconds,
  async render(job) {
    const face = job.face;
    if (face && 'faces' in face) {
      const { duration } = await renderLipSync({ video: face.video, faces: face.faces, audio: job.audio.file, audioExt: job.audio.ext, output: job.output, startAt: job.startAt, script: job.script, onProgress: job.onProgress });
      return { duration };
    }
    return { ...(await renderLoop(job)), note: face?.note ?? MSG.lipSyncNoFace };
  },
};

const ENGINES: Record<string, (config: Record<string, unknown>) => LipSyncEngine> = {
  local: () => AVATAR_LOOP,
  lipsync: () => OFFLINE_LIPSYNC,
  heygem: (config) => new HeyGemEngine(config as HeyGemConfig),
};

/**
 * Whether a channel's engine renders picture works (photo avatars, pet and photo-speak): those on this machine do;
 * remote lip-sync servers take avatar videos only. Known from the engine's name, without making it.
 */
export const rendersPictures = (engine: string | null | undefined): boolean => engine === 'local' || engine === 'lipsync';

/**
 * The engine a video channel names, made from its stored settings; undefined when the channel has none that works
 * (`none`, or a name this server does not know). A remote engine's settings that cannot make one throw a
 * LipSyncEngineError (user-facing).
 */
export function lipSyncEngineFor(engine: string | null | undefined, config?: Record<string, unknown> | null): LipSyncEngine | undefined {
  if (!engine || !Object.hasOwn(ENGINES, engine)) return undefined;
  return ENGINES[engine]!(config ?? {});
}
