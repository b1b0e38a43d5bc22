import { lazyChunk, definePlugin } from '../../core';
import { API_KEYS_ROUTE, ApiKeysState, ApiKeysStateToken } from './api-keys-state';
import { ApiKeysCommands } from './api-keys-commands';

const ApiKeysPanel = lazyChunk(() => import('./panels/ApiKeysPanel'));

/** 账号 → API 密钥 (issue 34): personal keys of the public API, their callback URL and delivery log. */
export const plugin = definePlugin('openapi', {
  services: [[ApiKeysStateToken, ApiKeysState]],
  commands: ApiKeysCommands,
  panels: [{ route: API_KEYS_ROUTE, component: ApiKeysPanel }],
});
