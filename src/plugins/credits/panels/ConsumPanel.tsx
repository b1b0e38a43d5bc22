import { useMemo, useState, type ChangeEvent } from 'react';
import { Button, HTMLTable, NonIdealState, SegmentedControl, Spinner } from '@blueprintjs/core';
import { API, type CreditLog } from '../../../contract';
import { TOKENS, formatDateTime, remoteValue, useRemote, useService, useSubscription, type ApiClient, type Navigation, type PanelProps, type Remote } from '../../../core';
import { chinaToday, clampRange, creditTone, formatBalance, formatCredits, formatSignedCredits, isDate, lastDays, pageCount, shortcutOf, type DateRange } from '../format';
import SpendChart, { type DailySpend } from './SpendChart';
import '../credits.css';
import { SECTION_LOADING } from './TopBarParts';
import { useCredits, useProfile } from './use-credits';

const PAGE_SIZE = 10;
const DEFAULT_DAYS = 30;
const SHORTCUTS = [
  { label: '近7天', value: '7' },
  { label: '近30天', value: '30' },
];

/** /consum (part 1 §2): balance and 兑换, a date range (no future dates; 近7天, 近30天), daily spend chart, the usage list. */
export default function ConsumPanel(_props: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const { store, actions } = useCredits();
  const profile = useProfile();
  const [range, setRange] = useState<DateRange>(() => lastDays(DEFAULT_DAYS));
  const [page, setPage] = useState(1);
  const today = chinaToday();
  const shortcut = shortcutOf(range);

  const logs = useRemote(`${range.start}:${range.end}:${page}`, (signal) =>
    api.call(API.credits.log, { start: range.start, end: range.end, page, limit: PAGE_SIZE }, { silent: true, signal }),
  );
  const days = useRemote(`${range.start}:${range.end}`, (signal) =>
    api.call(API.credits.daily, { start: range.start, end: range.end }, { silent: true, signal }).then((r) => r.list),
  );
  const log = logs.remote;
  const daily = days.remote;
  useSubscription(store.changed$, () => {
    logs.reload();
    days.reload();
  });

  const choose = (next: DateRange) => {
    setRange(next);
    setPage(1);
  };
  const onDate = (which: 'start' | 'end') => (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    if (!isDate(value)) return; // half-typed: wait for a whole date
    choose(clampRange({ ...range, [which]: value }, today, which));
  };

  // A failed call shows its message, not the list it replaced.
  const logValue = log.state === 'error' ? undefined : remoteValue(log);
  const total = logValue?.total ?? 0;
  const pages = pageCount(total, PAGE_SIZE);

  return (
    <div className="credits-page" data-testid="consum-panel">
      <section className="credits-hero">
        <div>
          <div className="credits-hero-label">当前积分</div>
          <div className="credits-hero-value" data-testid="consum-credits">
            {formatBalance(profile)}
          </div>
        </div>
        <div className="credits-hero-actions">
          <Button intent="primary" size="large" icon="exchange" text="兑换积分" onClick={() => actions.openRedeem()} data-testid="consum-redeem" />
          <Button size="large" variant="outlined" icon="th-list" text="积分明细" onClick={() => navigation.navigate('/moreCredits')} />
        </div>
      </section>

      <section className="credits-toolbar" aria-label="时间范围">
        <div className="credits-range">
          <input type="date" className="bp6-input credits-date" aria-label="开始日期" value={range.start} max={range.end < today ? range.end : today} onChange={onDate('start')} data-testid="range-start" />
          <span className="credits-muted">至</span>
          <input type="date" className="bp6-input credits-date" aria-label="结束日期" value={range.end} min={range.start} max={today} onChange={onDate('end')} data-testid="range-end" />
        </div>
        <SegmentedControl
          className="credits-shortcuts"
          intent="primary"
          options={SHORTCUTS}
          value={shortcut ? String(shortcut) : ''}
          onValueChange={(v) => choose(lastDays(Number(v)))}
        />
      </section>

      <section className="credits-card">
        <header className="credits-card-head">
          <h3>每日消耗</h3>
          {daily.state === 'ok' && <span className="credits-muted">合计消耗 {formatCredits(daily.value.reduce((s, d) => s + d.spent, 0))} 积分</span>}
        </header>
        <DailyChart daily={daily} />
      </section>

      <section className="credits-card">
        <header className="credits-card-head">
          <h3>积分记录</h3>
          {logValue && <span className="credits-muted" data-testid="log-total">共 {total} 条</span>}
        </header>
        {logValue && logValue.list.length > 0 ? (
          <>
            <LogTable list={logValue.list} dim={log.state === 'loading'} />
            {pages > 1 && (
              <div className="credits-pager" data-testid="log-pager">
                <Button variant="minimal" icon="chevron-left" text="上一页" disabled={page <= 1 || log.state === 'loading'} onClick={() => setPage((p) => p - 1)} />
                <span className="credits-muted">
                  第 {page} / {pages} 页
                </span>
                <Button variant="minimal" endIcon="chevron-right" text="下一页" disabled={page >= pages || log.state === 'loading'} onClick={() => setPage((p) => p + 1)} data-testid="log-next" />
              </div>
            )}
          </>
        ) : log.state === 'error' ? (
          <NonIdealState icon="warning-sign" title="积分记录加载失败" description={log.message} className="credits-empty" />
        ) : logValue ? (
          <div data-testid="log-empty">
            <NonIdealState icon="history" title="暂无积分记录" description="所选时间段内没有积分变动，换个时间范围看看。" className="credits-empty" />
          </div>
        ) : (
          SECTION_LOADING
        )}
      </section>
    </div>
  );
}

function DailyChart({ daily }: { daily: Remote<DailySpend[]> }) {
  const points = remoteValue(daily);
  const anySpend = useMemo(() => (points ?? []).some((p) => p.spent > 0), [points]);
  if (daily.state === 'error') return <NonIdealState icon="warning-sign" title="消耗趋势加载失败" description={daily.message} className="credits-empty" />;
  if (!points) {
    return (
      <div className="credits-loading credits-chart-placeholder">
        <Spinner size={24} />
      </div>
    );
  }
  if (!anySpend) {
    return (
      <div data-testid="chart-empty">
        <NonIdealState icon="timeline-bar-chart" title="暂无消耗" description="所选时间段内没有消耗积分。" className="credits-empty credits-chart-placeholder" />
      </div>
    );
  }
  return <SpendChart points={points} />;
}

function LogTable({ list, dim }: { list: CreditLog[]; dim: boolean }) {
  return (
    <div className={`credits-table-wrap${dim ? ' dim' : ''}`}>
      <HTMLTable className="credits-table" interactive data-testid="log-table">
        <thead>
          <tr>
            <th>项目</th>
            <th>时间</th>
            <th className="num">积分</th>
          </tr>
        </thead>
        <tbody>
          {list.map((row, i) => (
            <tr key={`${row.create_time}-${i}`}>
              <td className="credits-log-action">{row.action_name}</td>
              <td className="credits-log-time">{formatDateTime(row.create_time)}</td>
              <td className={`num credits-amount ${creditTone(row.credits)}`}>{formatSignedCredits(row.credits)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
