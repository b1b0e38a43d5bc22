import { z } from 'zod';
import { defineCall } from '../call';
import { empty, oneOf } from '../schema';

/** Site-settings fields (part 1 §3), all set by the operator with `npm run admin -- site set key=value`. */
export const SITE_FIELDS = [
  'site_title', 'banner', 'icp', 'gabeian', 'copyright', 'cert', 'safety_cert', 'diy_label', 'head_logo',
  'seo_keyword', 'seo_desc', 'qrcode', 'logo', 'title', 'clone_usage', 'login_bg', 'login_logo', 'login_title',
  'privacy_agreement', 'eula',
] as const;
export type SiteField = (typeof SITE_FIELDS)[number];

/**
 * Operator settings that are ours (not shown to the browser as site info). chat_*: the copywriting engine
 * (OpenAI-compatible; chat_api_key is a secret and only the server reads it). parse_*: the link-parse engine of
 * extraction (hybrid | parsevideo, its base URL, its timeout); extraction_free_daily: free extractions a day. kling_*: the
 * video generation provider (kling_secret_key is a secret); video_pro_enabled=1 opens 高品质; video_image_engine
 * local|kling picks image-to-video's engine; videogen_local_percent (1–100, default LIMITS.videoLocalPercent) is the local
 * camera move's share of Kling's price. asr_*: video translation's speech recognition (an OpenAI-compatible
 * transcription API; asr_api_key is a secret). music_*: AI music's engine (minimax | none; without its own key MiniMax
 * uses the voice channel mm's), its base URL, key (a secret) and model; music_credits: a song's price (default 50).
 */
export const OPERATOR_SETTINGS = ['guest_credits', 'space_base_gb', 'space_max_gb', 'credits_rule', 'chat_base_url', 'chat_api_key', 'chat_model', 'chat_reasoning_model',
  'parse_engine', 'parse_base_url', 'parse_timeout_ms', 'extraction_free_daily',
  'kling_base_url', 'kling_access_key', 'kling_secret_key', 'kling_model', 'video_pro_enabled', 'video_image_engine', 'videogen_local_percent',
  'asr_base_url', 'asr_api_key', 'asr_model', 'asr_timeout_ms',
  'music_engine', 'music_base_url', 'music_api_key', 'music_model', 'music_credits',
] as const;
export type OperatorSetting = (typeof OPERATOR_SETTINGS)[number];

export const SiteInfo = z.object({
  ...(Object.fromEntries(SITE_FIELDS.map((f) => [f, z.string()])) as Record<SiteField, z.ZodString>),
  /** ours: 1 when the operator grants guests credits (guest_credits > 0), which shows the 游客体验 entry. */
  guest_enabled: z.union([z.literal(0), z.literal(1)]),
});
export type SiteInfo = z.infer<typeof SiteInfo>;

/** /protocol?type=… and the setting that holds its text. */
export const PROTOCOL_TYPES = { user: 'eula', privacy: 'privacy_agreement', clone: 'clone_usage' } as const satisfies Record<string, SiteField>;
export const PROTOCOL_TITLES = { user: '用户协议', privacy: '隐私条款', clone: '本平台音色克隆使用规范' } as const;
export type ProtocolType = keyof typeof PROTOCOL_TYPES;

export const siteCalls = {
  site: defineCall({
    id: 'site.info', method: 'GET', path: '/api/site', checked: true, auth: 'none', pathFromSpec: false,
    summary: 'Site settings for the shell, login page and footer (spec name: site).',
    request: empty, response: SiteInfo,
  }),
  protocol: defineCall({
    id: 'site.protocol', method: 'GET', path: '/api/protocol2', checked: true, auth: 'none', pathFromSpec: false,
    summary: 'Agreement text by type (spec name: protocol2).',
    request: z.object({ type: oneOf('协议类型', ['user', 'privacy', 'clone']) }),
    response: z.object({ title: z.string(), content: z.string() }),
  }),
  health: defineCall({
    id: 'site.health', method: 'GET', path: '/api/health', checked: false, auth: 'none', pathFromSpec: false,
    summary: 'Liveness and database reachability, for operators and load balancers.',
    request: empty, response: z.object({ status: z.literal('ok'), role: z.string(), database: z.string() }),
  }),
  healthLive: defineCall({
    id: 'site.healthLive', method: 'GET', path: '/api/health/live', checked: false, auth: 'none', pathFromSpec: false,
    summary: 'Liveness: the process answers (nothing else is asked), for a supervisor that restarts a hung process.',
    request: empty, response: z.object({ status: z.literal('live'), role: z.string(), uptime_seconds: z.number() }),
  }),
  healthReady: defineCall({
    id: 'site.healthReady', method: 'GET', path: '/api/health/ready', checked: false, auth: 'none', pathFromSpec: false,
    summary: 'Readiness: the database and the object storage answer and the process is not shutting down (HTTP 503 otherwise), for a load balancer.',
    request: empty,
    response: z.object({
      status: z.enum(['ready', 'not ready']),
      role: z.string(),
      database: z.object({ kind: z.string(), ok: z.boolean(), error: z.string().optional() }),
      storage: z.object({ ok: z.boolean(), error: z.string().optional() }),
      shutting_down: z.boolean(),
    }),
  }),
};

/** Prometheus metrics (text format), outside /api: the operator key as a bearer token or the operator-key header. */
export const METRICS_PATH = '/metrics';
