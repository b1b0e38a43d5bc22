/**
 * Operator calls of the channels: publish or remove a public voice, configure a voice or video channel. The admin feature
 * answers them (they are admin calls); the channels and the training are the voices feature's.
 */
import { API, CHANNEL_ENGINES, type CallRequest } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { FeatureContext } from '../../app-context';
import { LipSyncEngineError, lipSyncEngineFor } from '../../engines/lipsync';
import { isCloningServer, PROVIDER_BASE_URLS } from '../../engines/speech';
import { VoicesRepository, type ChannelKind } from '../voices';
import { publishVoice, removePublicVoice } from './public-voices';

type ChannelSet = CallRequest<typeof API.admin.channelSet>;
const CONFIG_KEYS = ['base_url', 'api_key', 'model', 'group_id', 'timeout_ms', 'result_url', 'result_dir', 'share_dir', 'server_dir', 'concurrency'] as const;

async function channelKind(channels: VoicesRepository, params: Pick<ChannelSet, 'api' | 'kind'>): Promise<ChannelKind> {
  if (params.kind) return params.kind;
  const kinds = await channels.channelKinds(params.api);
  if (kinds.length === 1) return kinds[0]!;
  if (kinds.length === 0) throw new ApiError(`渠道 ${params.api} 不存在：新建渠道请用 --kind voice 或 --kind video 指定类型`);
  throw new ApiError(`声音与视频都有渠道 ${params.api}：请用 --kind voice 或 --kind video 指定`);
}

/**
 * A video engine is enabled only when the channel's settings make one: a remote lip-sync engine needs an address it
 * can be reached at (as providers need their keys).
 */
function checkVideoEngine(engine: string, config: Record<string, unknown>): void {
  try {
    lipSyncEngineFor(engine, config);
  } catch (err) {
    if (!(err instanceof LipSyncEngineError)) throw err;
    if (!config.base_url) throw new ApiError(`启用 ${engine} 引擎需要 --base-url（例如 http://gpu-host:8383）`);
    throw new ApiError(`${engine} 引擎的地址无效：--base-url 与 --result-url 需为 http(s) 地址`);
  }
}

/** A cloning TTS server is enabled only with an http(s) address and the shared folder it reads references from. */
function checkCloningServer(engine: string, config: Record<string, unknown>): void {
  if (!/^https?:\/\/./.test(String(config.base_url ?? ''))) throw new ApiError(`启用 ${engine} 引擎需要 --base-url（http(s) 地址，例如 http://gpu-host:${engine === 'fishspeech' ? 18180 : 9880}）`);
  if (!config.share_dir) throw new ApiError(`启用 ${engine} 引擎需要 --share-dir（本机可写、语音服务可读的参考音频共享目录）`);
}

export function registerChannelAdminRoutes(ctx: FeatureContext): void {
  const { router, db } = ctx;

  router.handle(API.admin.voicePublish, async ({ params }) => ({ id: await publishVoice(ctx, params) }));
  router.handle(API.admin.voiceRemove, async ({ params }) => removePublicVoice(ctx, params.id));

  router.handle(API.admin.channelSet, async ({ params }) =>
    db.tx(async (q) => {
      const channels = new VoicesRepository(q);
      const kind = await channelKind(channels, params);
      const engines = CHANNEL_ENGINES[kind] as readonly string[];
      if (params.engine !== undefined && !engines.includes(params.engine)) throw new ApiError(`${kind} 渠道的引擎可选：${engines.join(', ')}`);
      const found = await channels.channelForUpdate(kind, params.api);
      if (!found) {
        if (!params.name) throw new ApiError('新建渠道需要 --name');
        await channels.addChannel(kind, params.api, params.name);
      }
      const engine = params.engine ?? found?.engine ?? 'none';
      const config: Record<string, unknown> = { ...(found?.config ?? {}) };
      for (const key of CONFIG_KEYS) if (params[key] !== undefined) config[key] = params[key];
      if ((engine === 'fish' || engine === 'minimax') && !config.base_url) config.base_url = PROVIDER_BASE_URLS[engine];
      const enabled = params.enabled ?? found?.enabled ?? false;
      if (enabled && engine === 'none') throw new ApiError('启用渠道前需要用 --engine 指定引擎');
      if (enabled && (engine === 'fish' || engine === 'minimax') && !config.api_key) throw new ApiError(`启用 ${engine} 引擎需要 --api-key`);
      if (enabled && kind === 'video') checkVideoEngine(engine, config);
      if (enabled && kind === 'voice' && isCloningServer(engine)) checkCloningServer(engine, config);
      if (params.dub_credits !== undefined && kind !== 'voice') throw new ApiError('配音价格（--dub-credits）只适用于声音渠道');
      // The offline engine speaks on this machine: dubbing with it is free (the dubbing feature charges it nothing).
      if (params.dub_credits && engine === 'local') throw new ApiError('离线引擎的配音免费，不能设置配音价格');

      await channels.updateChannel(kind, params.api, {
        engine, config, enabled, name: params.name, description: params.desc, version_name: params.version_name, credits: params.credits,
        dub_credits: params.dub_credits, free_times: params.free_times, train_times: params.train_times, upload_tips: params.upload_tips, language: params.language,
      });
      return { kind, api: params.api, enabled, engine, configured: CONFIG_KEYS.filter((k) => config[k] !== undefined && config[k] !== '') };
    }),
  );
}
