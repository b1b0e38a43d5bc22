/** Operator calls of the voice pipeline: publish a public voice, configure a voice or video channel. */
import { API, CHANNEL_ENGINES, type CallRequest } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { publishLocalFile } from '../../infra/user-files';
import { PROVIDER_BASE_URLS } from './speech-engines';

type ChannelSet = CallRequest<typeof API.admin.channelSet>;
const CONFIG_KEYS = ['base_url', 'api_key', 'model', 'group_id', 'timeout_ms'] as const;

async function channelKind(q: Queryable, params: Pick<ChannelSet, 'api' | 'kind'>): Promise<'voice' | 'video'> {
  if (params.kind) return params.kind;
  const { rows } = await q.query<{ kind: 'voice' | 'video' }>('SELECT kind FROM channels WHERE api = $1', [params.api]);
  if (rows.length === 1) return rows[0]!.kind;
  if (rows.length === 0) throw new ApiError(`渠道 ${params.api} 不存在：新建渠道请用 --kind voice 或 --kind video 指定类型`);
  throw new ApiError(`声音与视频都有渠道 ${params.api}：请用 --kind voice 或 --kind video 指定`);
}

export function registerChannelAdminRoutes(ctx: FeatureContext): void {
  const { router, db, queue } = ctx;

  router.handle(API.admin.voicePublish, async ({ params }) => {
    const key = await publishLocalFile(ctx, params.audio, 'voice');
    return db.tx(async (q) => {
      const { rows: channel } = await q.query<{ api: string }>(`SELECT api FROM channels WHERE kind = 'voice' AND api = $1 AND engine <> 'none'`, [params.api]);
      if (!channel[0]) throw new ApiError(`声音渠道 ${params.api} 没有可用的引擎；先用 channel set 配置`);
      const { rows: file } = await q.query<{ id: number }>('SELECT id FROM files WHERE object_key = $1', [key]);
      const { rows: voice } = await q.query<{ id: number }>(
        `INSERT INTO voices (user_id, name, audio_key, api, generate_status, file_id) VALUES (NULL, $1, $2, $3, 1, $4) RETURNING id`,
        [params.name, key, params.api, file[0]!.id],
      );
      const { rows: training } = await q.query<{ id: number }>(
        `INSERT INTO voice_trainings (voice_id, user_id, api, file_id) VALUES ($1, NULL, $2, $3) RETURNING id`,
        [voice[0]!.id, params.api, file[0]!.id],
      );
      await q.query('UPDATE voices SET training_id = $2 WHERE id = $1', [voice[0]!.id, training[0]!.id]);
      await queue.send('voice-train', { trainingId: training[0]!.id }, {}, q);
      return { id: voice[0]!.id };
    });
  });

  router.handle(API.admin.channelSet, async ({ params }) =>
    db.tx(async (q) => {
      const kind = await channelKind(q, params);
      const engines = CHANNEL_ENGINES[kind] as readonly string[];
      if (params.engine !== undefined && !engines.includes(params.engine)) throw new ApiError(`${kind} 渠道的引擎可选：${engines.join(', ')}`);
      const { rows: found } = await q.query<{ engine: string; config: Record<string, unknown>; enabled: boolean }>(
        'SELECT engine, config, enabled FROM channels WHERE kind = $1 AND api = $2 FOR UPDATE',
        [kind, params.api],
      );
      if (!found[0]) {
        if (!params.name) throw new ApiError('新建渠道需要 --name');
        await q.query(`INSERT INTO channels (api, kind, name, engine, sort) VALUES ($1, $2, $3, 'none', 100)`, [params.api, kind, params.name]);
      }
      const engine = params.engine ?? found[0]?.engine ?? 'none';
      const config: Record<string, unknown> = { ...(found[0]?.config ?? {}) };
      for (const key of CONFIG_KEYS) if (params[key] !== undefined) config[key] = params[key];
      if ((engine === 'fish' || engine === 'minimax') && !config.base_url) config.base_url = PROVIDER_BASE_URLS[engine];
      const enabled = params.enabled ?? found[0]?.enabled ?? false;
      if (enabled && engine === 'none') throw new ApiError('启用渠道前需要用 --engine 指定引擎');
      if (enabled && (engine === 'fish' || engine === 'minimax') && !config.api_key) throw new ApiError(`启用 ${engine} 引擎需要 --api-key`);

      const columns = { name: params.name, description: params.desc, version_name: params.version_name, credits: params.credits, free_times: params.free_times, train_times: params.train_times, upload_tips: params.upload_tips, language: params.language };
      const sets = ['engine = $3', 'config = $4', 'enabled = $5'];
      const args: unknown[] = [kind, params.api, engine, JSON.stringify(config), enabled];
      for (const [column, value] of Object.entries(columns)) {
        if (value === undefined) continue;
        args.push(value);
        sets.push(`${column} = $${args.length}`);
      }
      await q.query(`UPDATE channels SET ${sets.join(', ')} WHERE kind = $1 AND api = $2`, args);
      return { kind, api: params.api, enabled, engine, configured: CONFIG_KEYS.filter((k) => config[k] !== undefined && config[k] !== '') };
    }),
  );
}
