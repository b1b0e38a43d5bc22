import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { MessageBox, useOpenedScreen, useScrolledToEnd, useStore, useValue, type PanelProps } from '../../../core';
import type { BotView } from '../../../contract';
import { EmployeeStateToken, type EmployeeState, type TalkingScreen } from '../employee-state';
import { TalkButton } from './TalkButton';
import { TalkingFace } from './TalkingFace';
import './employee.css';

/** /employee/talking: face to face with one employee. The state is employee-state.ts's. */
export default function TalkingPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(EmployeeStateToken, (state: EmployeeState) => state.talk(closed$));
  const bot = useStore(screen.bot);
  if (!bot.loaded) return <div className="employee-page"><Spinner /></div>;
  if (!bot.value)
    return (
      <div className="employee-page">
        <NonIdealState icon="person" title="找不到这位员工" description="请先在超级员工页聘用后再对话。" action={<Button text="去招聘" onClick={() => screen.back()} />} />
      </div>
    );
  return <Talking screen={screen} bot={bot.value} />;
}

function Talking({ screen, bot }: { screen: TalkingScreen; bot: BotView }) {
  const speaking = useValue(screen.speaker.speaking$);
  return (
    <div className="talk-page" data-testid="employee-talking">
      <aside className="talk-stage">
        <Button variant="minimal" icon="arrow-left" text="我的员工" onClick={() => screen.back()} className="talk-back" />
        <TalkingFace bot={bot} speaker={screen.speaker} />
        <div className="talk-who">
          <strong>{bot.name}</strong>
          <span>{bot.type}</span>
          {speaking && <span className="talk-speaking" data-testid="employee-speaking">正在说话…</span>}
        </div>
      </aside>
      <section className="talk-main">
        <Lines screen={screen} bot={bot} />
        <Composer screen={screen} bot={bot} />
      </section>
    </div>
  );
}

function Lines({ screen, bot }: { screen: TalkingScreen; bot: BotView }) {
  const lines = useValue(screen.lines$);
  const making = useValue(screen.making$);
  const area = useScrolledToEnd(lines);
  return (
    <div className="talk-lines" ref={area} data-testid="employee-lines">
      {bot.welcome && <div className="talk-line assistant welcome">{bot.welcome}</div>}
      {lines.map((l) => (
        <div key={l.key} className={`talk-line ${l.role}`} data-testid={l.role === 'user' ? 'employee-question' : 'employee-answer'}>
          <span className="talk-text">{l.content}</span>
          {l.streaming && !l.content && <Spinner size={14} />}
          {l.error && <div className="talk-error">{l.error}</div>}
          {l.role === 'assistant' && !l.streaming && l.content && (
            <div className="talk-actions">
              <Button variant="minimal" size="small" icon="volume-up" text="再听一遍" onClick={() => screen.replay(l)} />
              {screen.canMakeVideo(bot) && <Button variant="minimal" size="small" icon="video" text="生成视频" loading={making === l.key} onClick={() => void screen.makeVideo(bot, l)} data-testid="employee-make-video" />}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}

function Composer({ screen, bot }: { screen: TalkingScreen; bot: BotView }) {
  const input = useValue(screen.input$);
  const phase = useValue(screen.phase$);
  const hearing = useStore(screen.voice.hearing);
  const voiceOff = screen.voice.unavailable(hearing.value?.ready);
  return (
    <>
      {voiceOff && (
        <div className="talk-voice-off" data-testid="employee-voice-off">
          {voiceOff}
        </div>
      )}
      <footer className="talk-compose">
        <TalkButton screen={screen} />
        <MessageBox input$={screen.input$} onSend={() => void screen.send(bot)} placeholder={`和${bot.name}说点什么，Enter 发送`} maxLength={LIMITS.chatMaxChars} testId="employee-input" />
        {phase === 'streaming' ? (
          <Button icon="stop" text="停止" onClick={() => screen.stop()} data-testid="employee-stop" />
        ) : (
          <Button intent="primary" icon="send-message" text={bot.credits ? `发送（${bot.credits}积分）` : '发送'} onClick={() => void screen.send(bot)} disabled={!input.trim()} loading={phase === 'sending'} data-testid="employee-send" />
        )}
      </footer>
    </>
  );
}
