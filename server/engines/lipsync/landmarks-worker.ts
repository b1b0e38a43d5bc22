/**
 * Runs inside a worker thread (piscina), off the server's event loop: face detection and 68-point landmarks
 * with @vladmandic/face-api on TensorFlow.js's WASM backend. Weights and .wasm files are read from their npm
 * packages on disk; nothing is fetched. A task is a run of frames: the first is searched with the detector,
 * the rest are tracked (each frame's crop is the previous frame's landmarks' box), which costs a fraction of a detection.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as FaceApi from '@vladmandic/face-api';

export interface LandmarkTask {
  /** rgb24 frames of width × height. */
  frames: Uint8Array[];
  width: number;
  height: number;
}

export interface FrameLandmarks {
  /** 68 points, x0 y0 x1 y1 …, in the frame's pixels; null where no face was found. */
  points: Float32Array | null;
  score: number;
}

const require = createRequire(import.meta.url);
type Tf = typeof import('@tensorflow/tfjs');
let ready: Promise<{ tf: Tf; faceapi: typeof FaceApi }> | undefined;

function load() {
  ready ??= (async () => {
    const tf = require('@tensorflow/tfjs') as Tf;
    const wasm = require('@tensorflow/tfjs-backend-wasm') as typeof import('@tensorflow/tfjs-backend-wasm');
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as typeof FaceApi;
    // Local .wasm files; one thread per worker (the pool is the parallelism).
    wasm.setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))}/`);
    wasm.setThreadsCount?.(1);
    await tf.setBackend('wasm');
    await tf.ready();
    const models = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
    await faceapi.nets.tinyFaceDetector.loadFromDisk(models);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(models);
    return { tf, faceapi };
  })();
  return ready;
}

/** Below this the detector's guess is not a face. */
const MIN_SCORE = 0.6;
/** The detector's passes, tried in turn: the finer one sees smaller faces but also more false ones, so it must be surer. */
const DETECT_PASSES = [{ inputSize: 320, scoreThreshold: MIN_SCORE }, { inputSize: 512, scoreThreshold: 0.8 }];
/** A tracked face is confirmed by the detector on its neighbourhood every this many frames (a false start dies quickly). */
const CONFIRM_EVERY = 4;

/** The crop tracked from landmarks: their box grown to about what the detector would have drawn. */
const TRACK_GROW = 1.3;

type Box = { x: number; y: number; size: number };

function boxAround(points: Float32Array): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < points.length; i += 2) {
    x0 = Math.min(x0, points[i]!); x1 = Math.max(x1, points[i]!);
    y0 = Math.min(y0, points[i + 1]!); y1 = Math.max(y1, points[i + 1]!);
  }
  const size = Math.max(x1 - x0, y1 - y0) * TRACK_GROW;
  return { x: (x0 + x1) / 2 - size / 2, y: (y0 + y1) / 2 - size / 2, size };
}

export default async function landmarks(task: LandmarkTask): Promise<FrameLandmarks[]> {
  const { tf, faceapi } = await load();
  const { width, height } = task;
  const out: FrameLandmarks[] = [];
  let box: Box | undefined;
  let score = 0;
  let tracked = 0;
  /** Frames since the fine detector pass last found nothing (0: it did find one, or has not run). */
  let sinceFineMiss = 0;
  const cropOf = (frame: Uint8Array, b: Box, grow: number) => {
    const size = b.size * grow;
    const x = Math.max(0, Math.round(b.x + b.size / 2 - size / 2));
    const y = Math.max(0, Math.round(b.y + b.size / 2 - size / 2));
    const w = Math.min(width, Math.round(b.x + b.size / 2 + size / 2)) - x;
    const h = Math.min(height, Math.round(b.y + b.size / 2 + size / 2)) - y;
    if (w < 24 || h < 24) return undefined;
    const pixels = new Uint8Array(w * h * 3);
    for (let row = 0; row < h; row++) pixels.set(frame.subarray(((y + row) * width + x) * 3, ((y + row) * width + x + w) * 3), row * w * 3);
    return { x, y, tensor: tf.tensor3d(pixels, [h, w, 3], 'int32') };
  };
  for (const frame of task.frames) {
    // The whole frame becomes a tensor only when it must be searched; tracking crops in JS first.
    let image: import('@tensorflow/tfjs').Tensor3D | undefined;
    try {
      if (!box) {
        image = tf.tensor3d(frame, [height, width, 3], 'int32');
        // The quick pass first; a small face in a tall frame may need the finer one. The fine pass costs about
        // 2.5 quick ones: after it found nothing it runs again only every CONFIRM_EVERY frames (a faceless video
        // would otherwise pay it on every frame).
        let found: FaceApi.FaceDetection | undefined;
        for (const [i, pass] of DETECT_PASSES.entries()) {
          if (i > 0 && sinceFineMiss > 0 && sinceFineMiss < CONFIRM_EVERY) {
            sinceFineMiss++;
            break;
          }
          found = await faceapi.detectSingleFace(image as never, new faceapi.TinyFaceDetectorOptions(pass));
          if (i > 0) sinceFineMiss = found ? 0 : 1;
          if (found) break;
        }
        if (found) {
          const b = found.box;
          const size = Math.max(b.width, b.height);
          box = { x: b.x + b.width / 2 - size / 2, y: b.y + b.height / 2 - size / 2, size };
          score = found.score;
        }
        tracked = 0;
      } else if (++tracked % CONFIRM_EVERY === 0) {
        const around = cropOf(frame, box, 2);
        const still = around && (await faceapi.detectSingleFace(around.tensor as never, new faceapi.TinyFaceDetectorOptions({ inputSize: 224, scoreThreshold: MIN_SCORE })));
        around?.tensor.dispose();
        if (!still) box = undefined;
      }
      const crop = box && cropOf(frame, box, 1);
      if (!crop) {
        box = undefined;
        out.push({ points: null, score: 0 });
        continue;
      }
      const { x, y } = crop;
      const marks = (await faceapi.nets.faceLandmark68Net.detectLandmarks(crop.tensor as never)) as FaceApi.FaceLandmarks68;
      crop.tensor.dispose();
      const points = new Float32Array(136);
      marks.positions.forEach((p, i) => {
        points[2 * i] = p.x + x;
        points[2 * i + 1] = p.y + y;
      });
      out.push({ points, score });
      box = boxAround(points);
    } finally {
      image?.dispose();
    }
  }
  return out;
}
