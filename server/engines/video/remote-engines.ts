/** The remote lip-sync engines a video channel can name, made from the channel's stored settings. */
import { HeyGemEngine, type HeyGemConfig } from './heygem';
import { DEFAULT_ENGINE_CONCURRENCY, type RemoteLipSyncEngine } from './lip-sync-engine';

const REMOTE_ENGINES: Record<string, (config: Record<string, unknown>) => RemoteLipSyncEngine> = {
  heygem: (config) => new HeyGemEngine(config as HeyGemConfig),
};

export const isRemoteVideoEngine = (engine: string | null | undefined): engine is string => !!engine && engine in REMOTE_ENGINES;

/** The channel's engine; a LipSyncEngineError (user-facing) when its settings cannot make one. */
export function remoteVideoEngine(engine: string, config: Record<string, unknown>): RemoteLipSyncEngine {
  const make = REMOTE_ENGINES[engine];
  if (!make) throw new Error(`not a remote video engine: ${engine}`);
  return make(config);
}

/** Jobs the engine runs at once: the channel's `concurrency` setting, else the engine's default (1 for HeyGem). */
export function engineConcurrency(engine: string, config: Record<string, unknown> | null | undefined): number {
  const set = Number(config?.concurrency);
  return Number.isInteger(set) && set >= 1 ? set : (DEFAULT_ENGINE_CONCURRENCY[engine] ?? 1);
}
