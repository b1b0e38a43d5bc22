import { Suspense } from 'react';
import { Button, Spinner } from '@blueprintjs/core';
import { SafeHtml, TOKENS, useObservable, useService, useValue, type AuthService, type Navigation } from '../../../core';
import { useCredits } from './use-credits';
import { formatBalance } from '../format';
import { Inline, TopButton, TopPopover } from './TopBarParts';

/** Points popover: balance, 兑换, links to /consum and /moreCredits, and the operator's points rules. */
export function PointsButton() {
  const auth = useService<AuthService>(TOKENS.AuthService);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const { store, actions } = useCredits();
  const profile = useObservable(auth.profile$, null);
  const rule = useValue(store.rule$);
  const balance = formatBalance(profile);

  const content = (
    <div className="shell-popover credits-pop" data-testid="points-popover">
      <div className="credits-pop-title">我的积分</div>
      <div className="credits-balance-row">
        <div className="credits-balance" data-testid="points-balance">
          {balance}
          <span className="credits-balance-unit">积分</span>
        </div>
        <Button intent="primary" icon="exchange" text="兑换" className="bp6-popover-dismiss" onClick={() => actions.openRedeem()} data-testid="points-redeem" />
      </div>
      <div className="credits-pop-links">
        <Button variant="minimal" icon="timeline-bar-chart" text="消费中心" endIcon="chevron-right" alignText="start" className="bp6-popover-dismiss" onClick={() => navigation.navigate('/consum')} />
        <Button variant="minimal" icon="th-list" text="积分明细" endIcon="chevron-right" alignText="start" className="bp6-popover-dismiss" onClick={() => navigation.navigate('/moreCredits')} />
      </div>
      {(rule.state === 'loading' || (rule.state === 'ok' && rule.value.trim() !== '')) && (
        <div className="credits-rule" data-testid="points-rule">
          <div className="credits-section-title">积分规则</div>
          <Suspense fallback={<Spinner size={16} />}>
            {rule.state === 'ok' ? <SafeHtml html={rule.value} className="credits-html credits-rule-body" /> : <Spinner size={16} />}
          </Suspense>
        </div>
      )}
      {rule.state === 'error' && <Inline>{rule.message}</Inline>}
    </div>
  );

  return (
    <TopPopover
      content={content}
      onOpening={() => {
        void actions.loadRule();
        void auth.refreshProfile().catch(() => undefined);
      }}
    >
      <TopButton icon="dollar" label={balance} ariaLabel={`积分 ${balance}`} testId="points-button" className="credits-points-button" />
    </TopPopover>
  );
}
