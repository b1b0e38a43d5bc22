/**
 * What the voice features ask of a speech engine, whichever serves a channel: the offline engine (channel
 * `local`), Fish Audio, MiniMax, or a self-hosted cloning TTS server (fish-speech, GPT-SoVITS). Engines work on local files; the features move bytes in and out of storage.
 */

/** The user-facing parameters, in the product's units: 1 is the default of each. */
export interface SpeechParams {
  /** 0.5–2 */
  rate: number;
  /** 0.1–3 */
  volume: number;
  /** 0.1–2 */
  pitch: number;
  /** A value of the channel's language cascader ('' = the engine's choice). */
  language: string;
  /** default, happy, sad, angry, fearful, disgusted, surprised, neutral ('' = default). */
  emotion: string;
}

/** An engine's handle on a trained voice, stored with the voice (JSON) and given back on synthesis. */
export interface EngineVoice {
  /** The provider's id (Fish model id, MiniMax voice_id); '' for the offline engine. */
  remoteId: string;
  /** Engine-specific facts (the offline engine's measured pitch and rate). */
  profile?: Record<string, unknown>;
}

/**
 * A stretch of a spoken script as it sits in the engine's result, in seconds: from what the engine made (each
 * request's or run's real length), never estimated from the text. Its text is what the engine was given for it, so a
 * stretch an engine voiced in one request may still hold the pause markers that engine spoke itself (MiniMax).
 */
export interface SpokenStretch {
  text: string;
  start: number;
  end: number;
}

/** `training` carries the handle to ask again with (trainingState(voice.remoteId)). */
export type TrainingState = { state: 'training'; voice: EngineVoice } | { state: 'ready'; voice: EngineVoice } | { state: 'failed'; reason: string };

export interface CloneSample {
  /** Local path of the checked sample. */
  file: string;
  /** mp3, m4a or wav. */
  ext: string;
  /** The voice's name, for providers that keep one. */
  name: string;
  /** Our stable id of this training run, for providers that want a caller-chosen id (MiniMax voice_id). */
  trainingKey: string;
}

export interface SpeechEngine {
  /** Starts training; answers at once with the state (the offline engine is ready at once). */
  clone(sample: CloneSample): Promise<TrainingState>;
  /** Asks again about a voice whose training was still running (the same EngineVoice.remoteId clone answered). */
  trainingState(remoteId: string): Promise<TrainingState>;
  /**
   * Speaks a script (pause markers `<#s#>` included) with a voice, writing an mp3 to `output`; answers where each
   * spoken stretch of it landed in that mp3 (the timed text of subtitles).
   * `voice` is undefined for the engine's own default voice (public voices on the offline channel).
   */
  synthesize(script: string, voice: EngineVoice | undefined, params: SpeechParams, output: string): Promise<SpokenStretch[]>;
  /**
   * Removes what a clone left with the engine (engines that can: a temporary clone such as a translation's dub voice
   * is made only on those). A voice the engine can tell is already gone is no error.
   */
  discard?(voice: EngineVoice): Promise<void>;
}

/** A provider answered with an error the user may see (its message is already user-facing Chinese). */
export class SpeechEngineError extends Error {
  constructor(
    message: string,
    /** True when trying again later may succeed (timeouts, rate limits, 5xx). */
    readonly transient = false,
  ) {
    super(message);
  }
}

/** How a channel's engine is configured by the operator (`npm run admin -- channel set`), kept in channels.config. */
export interface EngineConfig {
  /** Base URL of the provider's API, e.g. https://api.fish.audio */
  base_url?: string;
  api_key?: string;
  /** Synthesis model name (Fish: the `model` header; MiniMax: t2a_v2 model). */
  model?: string;
  /** MiniMax account group. */
  group_id?: string;
  /** Request timeout, ms. */
  timeout_ms?: number;
  /** Cloning TTS servers: our mount of the folder the server reads reference audio from. */
  share_dir?: string;
  /** GPT-SoVITS: that folder as the server sees it (default: share_dir). */
  server_dir?: string;
}
