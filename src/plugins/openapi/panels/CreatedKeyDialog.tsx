import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { MSG } from '../../../contract';
import { useService, useValue } from '../../../core';
import { ApiKeysStateToken, type ApiKeysState } from '../api-keys-state';

/** The key just created, shown this once with its webhook secret; closing forgets both. */
export default function CreatedKeyDialog() {
  const state = useService<ApiKeysState>(ApiKeysStateToken);
  const created = useValue(state.created$);
  const row = (label: string, value: string, testId: string) => (
    <div className="ak-secret">
      <div className="ak-secret-label">{label}</div>
      <div className="ak-secret-value">
        <code data-testid={testId}>{value}</code>
        <Button icon="duplicate" variant="minimal" aria-label={`复制${label}`} onClick={() => void state.copy(value)} />
      </div>
    </div>
  );
  return (
    <Dialog isOpen={created !== null} onClose={() => state.dismissCreated()} title={`密钥已创建：${created?.name ?? ''}`} icon="key" className="ak-dialog" canOutsideClickClose={false}>
      <DialogBody>
        <Callout intent="warning" icon="eye-off" compact>{MSG.apiKeyCreated}</Callout>
        {created && row('API 密钥', created.key, 'ak-created-key')}
        {created && row('回调签名密钥（webhook_secret）', created.webhook_secret, 'ak-created-secret')}
        <p className="ak-usage">调用时加请求头 <code>Authorization: Bearer 密钥</code>；回调签名的校验方法见接口文档。</p>
      </DialogBody>
      <DialogFooter actions={<Button intent="primary" text="我已保存" onClick={() => state.dismissCreated()} data-testid="ak-created-close" />} />
    </Dialog>
  );
}
