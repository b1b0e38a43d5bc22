import { useEffect, useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, HTMLTable, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { DeliveryStatus, WEBHOOK_EVENTS } from '../../../contract';
import { useService, useValue } from '../../../core';
import { ApiKeysStateToken, type ApiKeysState } from '../api-keys-state';

const STATUS: Record<number, { text: string; intent: 'primary' | 'success' | 'danger' }> = {
  [DeliveryStatus.Pending]: { text: '重试中', intent: 'primary' },
  [DeliveryStatus.Delivered]: { text: '已送达', intent: 'success' },
  [DeliveryStatus.Failed]: { text: '已放弃', intent: 'danger' },
};

/** A key's callback URL and its latest deliveries (status, attempts, the receiver's last answer). */
export default function WebhookDialog() {
  const state = useService<ApiKeysState>(ApiKeysStateToken);
  const view = useValue(state.webhook$);
  const busy = useValue(state.busy$);
  const [url, setUrl] = useState('');
  useEffect(() => setUrl(view?.key.webhook_url ?? ''), [view?.key.id, view?.key.webhook_url]);

  return (
    <Dialog isOpen={view !== null} onClose={() => state.closeWebhook()} title={`回调通知：${view?.key.name ?? ''}`} icon="notifications" className="ak-dialog ak-webhook-dialog">
      <DialogBody>
        <p className="ak-usage">作品或配音完成或失败时（{WEBHOOK_EVENTS.join('、')}），向这个 https 地址 POST 一条带签名的通知；失败会在 24 小时内按递增间隔重试。</p>
        <InputGroup value={url} onValueChange={setUrl} placeholder="https://example.com/aisa/webhook" leftIcon="link" aria-label="回调地址" data-testid="ak-webhook-url" fill />
        <h3 className="ak-log-title">最近的投递</h3>
        {view?.deliveries === null ? (
          <Spinner size={20} />
        ) : view?.deliveries.length ? (
          <div className="ak-log-scroll">
            <HTMLTable compact striped className="ak-log" data-testid="ak-log">
              <thead><tr><th>事件</th><th>作品</th><th>状态</th><th>次数</th><th>响应</th><th>时间</th></tr></thead>
              <tbody>
                {view.deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>{d.event}</td>
                    <td>{d.object_id}</td>
                    <td><Tag minimal intent={STATUS[d.status]?.intent}>{STATUS[d.status]?.text ?? d.status}</Tag></td>
                    <td>{d.attempts}</td>
                    <td>{d.last_code || '无响应'}</td>
                    <td>{d.update_time}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        ) : (
          <p className="ak-hint">还没有投递记录。</p>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="关闭" onClick={() => state.closeWebhook()} data-testid="ak-webhook-close" />
            <Button intent="primary" text="保存" loading={busy} onClick={() => void state.saveWebhook(url)} data-testid="ak-webhook-save" />
          </>
        }
      />
    </Dialog>
  );
}
