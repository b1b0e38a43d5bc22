import { Button, Icon, Tag } from '@blueprintjs/core';
import type { ApiKeyItem } from '../../../contract';

/** One live key: its name, first characters, dates and callback; 回调 and 撤销. */
export default function KeyCard({ item, onWebhook, onRevoke }: { item: ApiKeyItem; onWebhook: () => void; onRevoke: () => void }) {
  return (
    <div className="ak-card" data-testid="ak-card">
      <div className="ak-card-main">
        <div className="ak-card-title">
          <Icon icon="key" size={14} />
          <span className="ak-card-name" title={item.name}>{item.name}</span>
          {item.webhook_url && <Tag minimal round intent="success" icon="notifications">回调已开启</Tag>}
        </div>
        <code className="ak-prefix" data-testid="ak-prefix">{item.prefix}</code>
        <div className="ak-meta">
          <span>创建于 {item.create_time}</span>
          <span>{item.last_used_time ? `最近使用 ${item.last_used_time}` : '尚未使用'}</span>
        </div>
      </div>
      <div className="ak-card-actions">
        <Button variant="outlined" icon="notifications" text="回调" onClick={onWebhook} data-testid="ak-webhook" />
        <Button variant="outlined" intent="danger" icon="trash" text="撤销" onClick={onRevoke} data-testid="ak-revoke" />
      </div>
    </div>
  );
}
