/**
 * The key page's state (账号 → API 密钥): the user's keys, the key just created (its only showing), the callback URL
 * and delivery log of one key. The panel renders it; the palette's commands reach it too.
 */
import { inject, injectable } from 'inversify';
import { BehaviorSubject } from 'rxjs';
import { API, API_KEYS_ROUTE, MSG, type ApiKeyItem, type WebhookDelivery } from '../../contract';
import { TOKENS, copyText, type ScreenServices } from '../../core';

export const ApiKeysStateToken = Symbol.for('openapi.State');
export { API_KEYS_ROUTE };

export type KeysLoad = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'ready'; keys: ApiKeyItem[] };
/** A key as created: the secret parts are in memory only until the dialog closes. */
export interface CreatedKey {
  name: string;
  key: string;
  webhook_secret: string;
}
/** The key whose callback URL and deliveries are open. */
export interface WebhookView {
  key: ApiKeyItem;
  deliveries: WebhookDelivery[] | null;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

@injectable()
export class ApiKeysState {
  readonly load$ = new BehaviorSubject<KeysLoad>({ state: 'loading' });
  readonly created$ = new BehaviorSubject<CreatedKey | null>(null);
  readonly webhook$ = new BehaviorSubject<WebhookView | null>(null);
  readonly busy$ = new BehaviorSubject(false);
  /** The palette's 新建 API 密钥 focuses the name field. */
  readonly createAsked$ = new BehaviorSubject(0);

  constructor(@inject(TOKENS.ScreenServices) private readonly s: ScreenServices) {}

  async load(): Promise<void> {
    if (this.load$.value.state !== 'ready') this.load$.next({ state: 'loading' });
    try {
      const { list } = await this.s.api.call(API.openapi.keyList, {}, { silent: true });
      this.load$.next({ state: 'ready', keys: list });
    } catch (err) {
      this.load$.next({ state: 'failed', error: message(err) });
    }
  }

  /** Creates a key and shows it once; answers whether it was made (a refusal is toasted). */
  async create(name: string): Promise<boolean> {
    return this.busy(async () => {
      const made = await this.s.api.call(API.openapi.keyCreate, { name });
      this.created$.next({ name, key: made.key, webhook_secret: made.webhook_secret });
      await this.load();
    });
  }

  dismissCreated(): void {
    this.created$.next(null);
  }

  copy(text: string): Promise<void> {
    return copyText({ clipboard: (t) => navigator.clipboard.writeText(t), notifier: this.s.notifier }, text);
  }

  async revoke(key: ApiKeyItem): Promise<boolean> {
    return this.busy(async () => {
      await this.s.api.call(API.openapi.keyRemove, { id: key.id });
      this.s.notifier.success(MSG.apiKeyRevoked);
      await this.load();
    });
  }

  /** Opens a key's callback URL and its latest deliveries. */
  async openWebhook(key: ApiKeyItem): Promise<void> {
    this.webhook$.next({ key, deliveries: null });
    try {
      const { list } = await this.s.api.call(API.openapi.deliveries, { id: key.id }, { silent: true });
      if (this.webhook$.value?.key.id === key.id) this.webhook$.next({ key, deliveries: list });
    } catch {
      if (this.webhook$.value?.key.id === key.id) this.webhook$.next({ key, deliveries: [] });
    }
  }

  closeWebhook(): void {
    this.webhook$.next(null);
  }

  async saveWebhook(url: string): Promise<boolean> {
    const view = this.webhook$.value;
    if (!view) return false;
    return this.busy(async () => {
      await this.s.api.call(API.openapi.webhookSet, { id: view.key.id, url: url.trim() });
      this.s.notifier.success(url.trim() ? MSG.webhookSaved : MSG.webhookCleared);
      this.webhook$.next({ ...view, key: { ...view.key, webhook_url: url.trim() } });
      await this.load();
    });
  }

  askCreate(): void {
    this.createAsked$.next(this.createAsked$.value + 1);
  }

  private async busy(run: () => Promise<void>): Promise<boolean> {
    if (this.busy$.value) return false;
    this.busy$.next(true);
    try {
      await run();
      return true;
    } catch {
      return false; // the api client has toasted the reason
    } finally {
      this.busy$.next(false);
    }
  }
}
