import { SITE_FIELDS, FALLBACK_SITE_TITLE, type SiteInfo, type OperatorSetting } from '../../../src/contract';
import type { Db, Queryable } from '../../infra/db';
import type { SiteSettings } from '../../app-context';
import { DEFAULT_CLONE_USAGE, DEFAULT_EULA, DEFAULT_PRIVACY } from './default-agreements';

/** Defaults for a fresh install, so the login page and footer look finished before the operator sets anything. */
const DEFAULTS: Partial<Record<string, string>> = {
  site_title: FALLBACK_SITE_TITLE,
  title: FALLBACK_SITE_TITLE,
  login_title: FALLBACK_SITE_TITLE,
  seo_desc: 'AI数字人视频创作平台：克隆数字人与声音，输入台词即可生成口播视频。',
  copyright: `© ${new Date().getFullYear()} ${FALLBACK_SITE_TITLE}`,
  guest_credits: '0',
  credits_rule:
    '<ol><li>积分用于视频合成、声音克隆、AI创作等功能，按功能标价扣除。</li>' +
    '<li>兑换码兑换的积分有有效期，到期自动失效。</li>' +
    '<li>消费时优先扣除最早到期的积分；任务失败时积分原路退回。</li></ol>',
  space_base_gb: '1',
  space_max_gb: '50',
  eula: DEFAULT_EULA,
  privacy_agreement: DEFAULT_PRIVACY,
  clone_usage: DEFAULT_CLONE_USAGE,
};

/** Settings change rarely and are read on every page load: kept in memory briefly (other api processes see a change within this). */
const CACHE_MS = 5000;

export class SettingsRepository implements SiteSettings {
  private cached?: { at: number; value: Promise<Record<string, string>> };
  private info?: { from: Record<string, string>; value: SiteInfo };

  constructor(private readonly db: Db) {}

  all(): Promise<Record<string, string>> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.value;
    const value = this.load();
    this.cached = { at: Date.now(), value };
    value.catch(() => (this.cached = undefined));
    return value;
  }

  private async load(): Promise<Record<string, string>> {
    const { rows } = await this.db.query<{ key: string; value: string }>('SELECT key, value FROM settings');
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(DEFAULTS)) if (v !== undefined) out[k] = v;
    for (const row of rows) out[row.key] = row.value;
    return out;
  }

  /** One frozen object while the settings are cached, so the router can reuse its sealed reply. */
  async siteInfo(): Promise<SiteInfo> {
    const all = await this.all();
    if (this.info?.from !== all) {
      const fields = Object.fromEntries(SITE_FIELDS.map((f) => [f, all[f] ?? ''])) as Record<(typeof SITE_FIELDS)[number], string>;
      this.info = { from: all, value: Object.freeze({ ...fields, guest_enabled: Number(all.guest_credits) > 0 ? 1 : 0 }) };
    }
    return this.info.value;
  }

  async operatorNumber(key: OperatorSetting): Promise<number> {
    const all = await this.all();
    const n = Number(all[key]);
    return Number.isFinite(n) ? n : 0;
  }

  async claim(key: string): Promise<boolean> {
    const { rows } = await this.db.query(`INSERT INTO settings (key, value) VALUES ($1, now()::text) ON CONFLICT (key) DO NOTHING RETURNING key`, [key]);
    this.cached = undefined;
    return rows.length > 0;
  }

  async set(settings: Record<string, string>): Promise<string[]> {
    const keys = Object.keys(settings);
    await this.db.tx(async (q) => {
      for (const key of keys) {
        await q.query(
          `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`,
          [key, settings[key]],
        );
      }
    });
    this.cached = undefined;
    return keys;
  }
}

/** What the health call asks of the database: that it answers. */
export class HealthRepository {
  constructor(private readonly db: Queryable) {}

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }
}
