import { useEffect, useRef } from 'react';
import { Button, Callout, Icon, Spinner } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { MessageComposer, PageHeader, useStore, useValue } from '../../../core';
import { GUIDE_ROUTE, OPERATION_ROUTE, TASKS_ROUTE, type HelperLine, type HelperMode, type HelperScreen } from '../helper-state';
import { HistoryBar } from './HistoryBar';
import { PlanCard } from './PlanCard';
import './helper.css';

const TABS: { mode: HelperMode; route: string; label: string; icon: 'help' | 'build' | 'list' }[] = [
  { mode: 'guide', route: GUIDE_ROUTE, label: '使用问答', icon: 'help' },
  { mode: 'operation', route: OPERATION_ROUTE, label: '帮我操作', icon: 'build' },
  { mode: 'tasks', route: TASKS_ROUTE, label: '后台任务', icon: 'list' },
];

const HINTS: Record<HelperMode, string[]> = {
  guide: ['怎么用自己的声音生成视频？', '视频合成怎么收费？', '数字人克隆需要什么样的素材？'],
  operation: ['我还有多少积分？', '列出我的数字分身和声音', '用我的分身把这段文案做成视频：大家好，欢迎来到直播间。'],
  tasks: ['把这 3 段文案分别用我的分身做成视频：第一段……第二段……第三段……'],
};

/** The three helper screens' shared frame: tabs, the conversation (steps, confirmation cards) and the composer. */
export function HelperChat({ screen, children }: { screen: HelperScreen; children?: React.ReactNode }) {
  const status = useStore(screen.status);
  return (
    <div className="helper-page" data-testid="helper-panel">
      <PageHeader icon="predictive-analysis" title="超级助手" subtitle="合作站点专属的运营助手：解答使用问题，也能替你查询和操作，花积分前一定先请你确认。">
        <div className="helper-tabs" role="tablist">
          {TABS.map((t) => (
            <Button key={t.route} icon={t.icon} text={t.label} role="tab" aria-selected={screen.mode === t.mode} intent={screen.mode === t.mode ? 'primary' : 'none'} variant={screen.mode === t.mode ? 'solid' : 'minimal'} onClick={() => screen.go(t.route)} />
          ))}
        </div>
      </PageHeader>
      {status.value?.chat === 0 && (
        <Callout intent="warning" icon="offline" className="helper-callout" data-testid="helper-no-engine">
          文案引擎尚未配置，助手暂时无法回答。请联系管理员配置后再试。
        </Callout>
      )}
      {children}
      {screen.history && <HistoryBar screen={screen} />}
      <Lines screen={screen} />
      <Composer screen={screen} disabled={status.value?.chat === 0} />
    </div>
  );
}

function Lines({ screen }: { screen: HelperScreen }) {
  const lines = useValue(screen.lines$);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [lines]);
  if (!lines.length) {
    return (
      <div className="helper-hints">
        {HINTS[screen.mode].map((h) => (
          <Button key={h} variant="outlined" text={h} onClick={() => screen.input$.next(h)} data-testid="helper-hint" />
        ))}
      </div>
    );
  }
  return (
    <div className="helper-lines" data-testid="helper-lines">
      {lines.map((l) => (
        <Line key={l.key} screen={screen} line={l} />
      ))}
      <div ref={end} />
    </div>
  );
}

function Line({ screen, line }: { screen: HelperScreen; line: HelperLine }) {
  return (
    <div className={`helper-line ${line.role}`} data-testid={line.role === 'user' ? 'helper-question' : 'helper-answer'}>
      {line.steps.length > 0 && (
        <ul className="helper-steps">
          {line.steps.map((s) => (
            <li key={s.id} className={`helper-step ${s.state}`} data-testid="helper-step">
              {s.state === 'running' ? <Spinner size={12} /> : <Icon icon={s.state === 'done' ? 'tick-circle' : 'error'} size={12} />}
              <span>{s.label}</span>
              {s.result && <span className="helper-step-result">{s.result}</span>}
            </li>
          ))}
        </ul>
      )}
      {line.content && <div className="helper-text">{line.content}</div>}
      {line.streaming && !line.content && !line.plan && <Spinner size={16} />}
      {line.plan && <PlanCard screen={screen} plan={line.plan} />}
      {line.error && <div className="helper-error">{line.error}</div>}
    </div>
  );
}

function Composer({ screen, disabled }: { screen: HelperScreen; disabled: boolean }) {
  const streaming = useValue(screen.streaming$);
  return (
    <MessageComposer
      className="helper-compose"
      input$={screen.input$}
      onSend={() => void screen.ask()}
      placeholder={screen.mode === 'guide' ? '问问怎么使用，Enter 发送' : '说说要我做什么，Enter 发送'}
      maxLength={LIMITS.helper.questionMaxChars}
      disabled={disabled}
      testId="helper-input"
      send={{ text: '发送', testId: 'helper-send' }}
      onStop={streaming ? () => screen.stop() : undefined}
    />
  );
}
