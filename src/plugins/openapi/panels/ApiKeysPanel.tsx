import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Icon, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { LIMITS, OPEN_DOCS_PATH, type ApiKeyItem } from '../../../contract';
import { useService, useValue, type PanelProps } from '../../../core';
import { ApiKeysStateToken, type ApiKeysState } from '../api-keys-state';
import KeyCard from './KeyCard';
import CreatedKeyDialog from './CreatedKeyDialog';
import WebhookDialog from './WebhookDialog';
import './api-keys.css';

/** 账号 → API 密钥: create a key (shown once), the live keys, revoke, each key's callback URL and delivery log. */
export default function ApiKeysPanel(_props: PanelProps) {
  const state = useService<ApiKeysState>(ApiKeysStateToken);
  const load = useValue(state.load$);
  const busy = useValue(state.busy$);
  const createAsked = useValue(state.createAsked$);
  const [name, setName] = useState('');
  const [revoking, setRevoking] = useState<ApiKeyItem | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);

  useEffect(() => void state.load(), [state]);
  useEffect(() => {
    if (createAsked > 0) nameInput.current?.focus();
  }, [createAsked]);

  const keys = load.state === 'ready' ? load.keys : [];
  const full = keys.length >= LIMITS.openApi.maxKeys;
  const create = async () => {
    if (await state.create(name.trim())) setName('');
  };

  let body;
  if (load.state === 'loading') body = <div className="ak-state"><Spinner size={28} /></div>;
  else if (load.state === 'failed') {
    body = <div className="ak-state"><NonIdealState icon="error" title="加载失败" description={load.error} action={<Button icon="refresh" text="重新加载" onClick={() => void state.load()} />} /></div>;
  } else if (keys.length === 0) {
    body = <div className="ak-state" data-testid="ak-empty"><NonIdealState icon="key" title="还没有 API 密钥" description="创建一个密钥，就能在自己的系统里调用数字人视频合成。" /></div>;
  } else {
    body = (
      <div className="ak-list" data-testid="ak-list">
        {keys.map((k) => <KeyCard key={k.id} item={k} onWebhook={() => void state.openWebhook(k)} onRevoke={() => setRevoking(k)} />)}
      </div>
    );
  }

  return (
    <div className="ak-panel" data-testid="ak-panel">
      <div className="ak-inner">
        <header className="ak-header">
          <Icon icon="key" size={22} className="ak-header-icon" />
          <div className="ak-header-text">
            <h1>API 密钥</h1>
            <p>用密钥从自己的系统调用开放接口：上传素材、提交作品、查询结果，作品完成后可回调通知。</p>
          </div>
          <a className="ak-docs bp6-button bp6-minimal" href={OPEN_DOCS_PATH} target="_blank" rel="noopener" data-testid="ak-docs">
            <Icon icon="document-open" />
            <span>接口文档</span>
          </a>
        </header>
        <form className="ak-create" onSubmit={(e) => { e.preventDefault(); void create(); }}>
          <InputGroup
            inputRef={nameInput} value={name} onValueChange={setName} placeholder="密钥名称，例如：商城后台" maxLength={LIMITS.nameMaxChars}
            disabled={full} aria-label="密钥名称" data-testid="ak-name" fill
          />
          <Button type="submit" intent="primary" icon="add" text="创建密钥" loading={busy} disabled={full || !name.trim()} data-testid="ak-create" />
        </form>
        <p className="ak-hint">{full ? `已达上限：每个账号最多 ${LIMITS.openApi.maxKeys} 个密钥，请先撤销不用的。` : `密钥只在创建时显示一次，请妥善保存；最多 ${LIMITS.openApi.maxKeys} 个。`}</p>
        {body}
      </div>
      <CreatedKeyDialog />
      <WebhookDialog />
      <Alert
        isOpen={revoking !== null} icon="trash" intent="danger" cancelButtonText="取消" confirmButtonText="撤销" loading={busy}
        onCancel={() => setRevoking(null)}
        onConfirm={async () => {
          if (revoking && (await state.revoke(revoking))) setRevoking(null);
        }}
        className="ak-alert"
      >
        <p>撤销「{revoking?.name}」后，使用它的请求都会被拒绝，且无法恢复。</p>
      </Alert>
    </div>
  );
}
