import { useEffect, useRef } from 'react';
import { Button } from '@blueprintjs/core';
import { useStore, useValue } from '../../../core';
import type { TalkingScreen } from '../employee-state';

const typing = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** 按住说话: hold the button (or the space bar, when not typing) to record; release to send what was heard. */
export function TalkButton({ screen }: { screen: TalkingScreen }) {
  const { voice } = screen;
  const hearing = useStore(voice.hearing);
  const phase = useValue(voice.phase$);
  const seconds = useValue(voice.seconds$);
  const answering = useValue(screen.phase$) !== 'idle';
  const button = useRef<HTMLButtonElement>(null);
  const why = voice.unavailable(hearing.value?.ready);
  const usable = hearing.loaded && !why && !answering;

  useEffect(() => {
    if (!usable) return;
    // Only while this screen is the one on show (the dock keeps others mounted, hidden).
    const shown = () => Boolean(button.current?.offsetParent);
    const down = (e: KeyboardEvent) => {
      if (e.code !== 'Space' || e.repeat || typing(e.target) || !shown()) return;
      e.preventDefault();
      voice.press();
    };
    const up = (e: KeyboardEvent) => {
      if (e.code !== 'Space' || typing(e.target) || !shown()) return;
      e.preventDefault();
      void voice.release();
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, [usable, voice]);

  return (
    <Button
      ref={button}
      className="talk-hold"
      icon="microphone"
      intent={phase === 'recording' ? 'danger' : 'none'}
      variant={phase === 'recording' ? 'solid' : 'outlined'}
      text={phase === 'recording' ? `松开发送 ${seconds}″` : phase === 'hearing' ? '识别中' : '按住说话'}
      loading={phase === 'hearing'}
      disabled={!usable && phase === 'off'}
      title={why || '按住说话，松开后发送（也可按住空格键）'}
      onPointerDown={(e) => {
        if (e.button !== 0 || !usable) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        voice.press();
      }}
      onPointerUp={() => void voice.release()}
      onPointerCancel={() => void voice.release()}
      onContextMenu={(e) => e.preventDefault()}
      data-testid="employee-hold-talk"
    />
  );
}
