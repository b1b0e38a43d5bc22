/**
 * What text to image asks of an image engine: `count` pictures of a prompt at a ratio, optionally guided by a
 * reference picture. Engines answer what they made (bytes, or a provider link to copy at once: such links expire
 * within hours); a provider failure is an ImageEngineError worded for the user.
 */
import type { LIMITS } from '../../../src/contract';

export type ImageRatio = (typeof LIMITS.imageRatios)[number];

export interface ImageRequest {
  prompt: string;
  ratio: ImageRatio;
  count: number;
  /** The user's reference picture, sent along where the provider takes one. */
  reference?: { bytes: Buffer; ext: 'png' | 'jpg' };
}

/** One made picture: its bytes (b64_json) or the provider's link to fetch them from. */
export type MadeImage = { bytes: Buffer } | { url: string };

export interface ImageResult {
  images: MadeImage[];
  /** Why fewer than `count` came back (the rest failed), when the engine knows. */
  shortfall?: ImageEngineError;
}

export interface ImageEngine {
  generate(request: ImageRequest): Promise<ImageResult>;
}

/**
 * A provider failure. `message` is the user-facing Chinese sentence (from MSG); `detail` is for the log and never
 * carries the API key.
 */
export class ImageEngineError extends Error {
  constructor(
    message: string,
    readonly detail: string,
    /** True when trying again later may succeed (timeouts, rate limits, 5xx, unreachable). */
    readonly transient = false,
  ) {
    super(message);
  }
}
