import { Button, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { PageHeader, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import type { BotView } from '../../../contract';
import { EmployeeStateToken, type EmployeeState, type OfficeScreen } from '../employee-state';
import './employee.css';

/** /employee: my employees as cards, and the 招聘 catalogue by category. The state is employee-state.ts's. */
export default function OfficePanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(EmployeeStateToken, (state: EmployeeState) => state.office(closed$));
  return (
    <div className="employee-page" data-testid="employee-panel">
      <PageHeader icon="people" title="超级员工" subtitle="聘用 AI 员工，面对面对话：回答即时显示，并用员工自己的声音说出来。" />
      <Mine screen={screen} />
      <Recruit screen={screen} />
    </div>
  );
}

function Mine({ screen }: { screen: OfficeScreen }) {
  const mine = useStore(screen.mine);
  const list = mine.value ?? [];
  return (
    <section className="employee-section">
      <h3>我的员工</h3>
      {!mine.loaded && <Spinner size={24} />}
      {mine.loaded && list.length === 0 && <NonIdealState icon="person" title="还没有员工" description="在下方招聘中挑选一位，聘用免费。" />}
      <div className="employee-grid" data-testid="employee-mine">
        {list.map((bot) => (
          <button type="button" key={bot.id} className="employee-card mine" onClick={() => screen.talk(bot)} data-testid="employee-mine-card">
            <Portrait bot={bot} />
            <span className="employee-card-body">
              <span className="employee-name">{bot.name}</span>
              <span className="employee-role">{bot.type}</span>
              <span className="employee-last">{bot.last_message || bot.welcome || bot.desc || '点击开始对话'}</span>
            </span>
          </button>
        ))}
      </div>
    </section>
  );
}

function Recruit({ screen }: { screen: OfficeScreen }) {
  const types = useStore(screen.types);
  const catalogue = useStore(screen.catalogue);
  const type = useValue(screen.type$);
  const employing = useValue(screen.employing$);
  return (
    <section className="employee-section">
      <h3>招聘</h3>
      <div className="employee-types" role="tablist">
        {[{ name: '', count: 0 }, ...(types.value ?? [])].map((t) => (
          <Button key={t.name || 'all'} text={t.name || '全部'} role="tab" aria-selected={type === t.name} active={type === t.name} intent={type === t.name ? 'primary' : 'none'} variant={type === t.name ? 'solid' : 'minimal'} onClick={() => screen.pickType(t.name)} data-testid="employee-type" />
        ))}
      </div>
      {catalogue.loaded && (catalogue.value ?? []).length === 0 && <p className="employee-muted">暂无可招聘的员工</p>}
      <div className="employee-grid" data-testid="employee-catalogue">
        {(catalogue.value ?? []).map((bot) => (
          <div key={bot.id} className="employee-card" data-testid="employee-catalogue-card">
            <Portrait bot={bot} />
            <span className="employee-card-body">
              <span className="employee-name">
                {bot.name} <Tag minimal round>{bot.type}</Tag>
              </span>
              <span className="employee-last">{bot.desc}</span>
              <span className="employee-price">{bot.credits ? `每条回答 ${bot.credits} 积分` : '对话免费'}</span>
            </span>
            {bot.employed ? (
              <Button text="对话" icon="chat" onClick={() => screen.talk(bot)} data-testid="employee-talk" />
            ) : (
              <Button intent="primary" text="聘用" icon="add" loading={employing === bot.id} onClick={() => void screen.employ(bot)} data-testid="employee-employ" />
            )}
          </div>
        ))}
      </div>
    </section>
  );
}

function Portrait({ bot }: { bot: BotView }) {
  return bot.avatar ? <img className="employee-portrait" src={bot.avatar} alt={bot.name} /> : <span className="employee-portrait empty">{bot.name.slice(0, 1)}</span>;
}
