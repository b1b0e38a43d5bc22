import { Button, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { API } from '../../../contract';
import { TOKENS, formatDateTime, remoteValue, useRemote, useService, useSubscription, type ApiClient, type Navigation, type PanelProps } from '../../../core';
import { SECTION_LOADING } from './TopBarParts';
import { useCredits } from './use-credits';
import { formatCredits } from '../format';
import '../credits.css';

/** /moreCredits (part 1 §2): unexpired credit batches by expiry date, and their total. */
export default function MoreCreditsPanel(_props: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const { store, actions } = useCredits();
  const expiry = useRemote('expiry', (signal) => api.call(API.credits.expiry, {}, { silent: true, signal }));
  const data = expiry.remote;
  useSubscription(store.changed$, expiry.reload);

  // A failed call shows its message, not the batches it replaced.
  const value = data.state === 'error' ? undefined : remoteValue(data);

  return (
    <div className="credits-page" data-testid="more-credits-panel">
      <section className="credits-hero">
        <div>
          <div className="credits-hero-label">未过期积分合计</div>
          <div className="credits-hero-value" data-testid="expiry-total">
            {value ? formatCredits(value.total) : '—'}
          </div>
          <div className="credits-muted credits-hero-note">消耗积分时，优先扣除最早到期的积分。</div>
        </div>
        <div className="credits-hero-actions">
          <Button intent="primary" size="large" icon="exchange" text="兑换积分" onClick={() => actions.openRedeem()} />
          <Button size="large" variant="outlined" icon="timeline-bar-chart" text="消费中心" onClick={() => navigation.navigate('/consum')} />
        </div>
      </section>

      <section className="credits-card">
        <header className="credits-card-head">
          <h3>积分到期明细</h3>
          {value && value.details.length > 0 && <span className="credits-muted">共 {value.details.length} 笔</span>}
        </header>
        {value && value.details.length > 0 ? (
          <div className={`credits-table-wrap${data.state === 'loading' ? ' dim' : ''}`}>
            <HTMLTable className="credits-table" interactive data-testid="expiry-table">
              <thead>
                <tr>
                  <th>到期时间</th>
                  <th className="num">积分</th>
                </tr>
              </thead>
              <tbody>
                {value.details.map((row, i) => (
                  <tr key={`${row.expire_time}-${i}`}>
                    <td>{formatDateTime(row.expire_time)}</td>
                    <td className="num credits-amount grant">{formatCredits(row.credits)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td>合计</td>
                  <td className="num credits-strong">{formatCredits(value.total)}</td>
                </tr>
              </tfoot>
            </HTMLTable>
          </div>
        ) : data.state === 'error' ? (
          <NonIdealState icon="warning-sign" title="积分明细加载失败" description={data.message} className="credits-empty" />
        ) : value ? (
          <div data-testid="expiry-empty">
            <NonIdealState
              icon="th-list"
              title="暂无可用积分"
              description="兑换积分后，这里会按到期时间列出每一笔积分。"
              action={<Button intent="primary" icon="exchange" text="兑换积分" onClick={() => actions.openRedeem()} />}
              className="credits-empty"
            />
          </div>
        ) : (
          SECTION_LOADING
        )}
      </section>
    </div>
  );
}
