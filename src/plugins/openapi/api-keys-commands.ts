import { commandTable, navigationCommands } from '../../core';
import { API_KEYS_ROUTE, ApiKeysStateToken, type ApiKeysState } from './api-keys-state';

/** Palette commands of the key page. */
export const ApiKeysCommands = navigationCommands<ApiKeysState>(ApiKeysStateToken, (navigation, state) =>
  commandTable('开放接口', [
    ['openapi.keys', 'API 密钥', 'key', 'api key token 接口 密钥 开放平台 集成 webhook 回调', () => navigation.navigate(API_KEYS_ROUTE)],
    ['openapi.create', '新建 API 密钥', 'add', 'new api key 新建 创建 密钥 接口', () => { navigation.navigate(API_KEYS_ROUTE); state.askCreate(); }],
    ['openapi.docs', '开放接口文档', 'document-open', 'api docs openapi swagger 接口文档', () => void window.open('/open/docs', '_blank', 'noopener')],
  ]),
);
