import { useEffect, useRef } from 'react';
import type { BotView } from '../../../contract';
import type { Speaker } from '../speaker';

/**
 * The employee on screen while it speaks. A public avatar plays its loop; its mouth region (from the avatar's face
 * track) opens with the voice's loudness: a dark mouth interior and the lower lip and jaw moving down. A picture
 * without a known mouth glows with the voice instead.
 */
export function TalkingFace({ bot, speaker }: { bot: BotView; speaker: Speaker }) {
  const face = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Written straight to the style every frame: a React render per audio frame would be wasted work.
    const sub = speaker.level$.subscribe((level) => face.current?.style.setProperty('--open', level.toFixed(3)));
    return () => sub.unsubscribe();
  }, [speaker]);
  const m = bot.mouth;
  return (
    <div className={`talk-face${m ? '' : ' still'}`} ref={face} data-testid="employee-face">
      {bot.video ? <video src={bot.video} poster={bot.avatar} autoPlay muted loop playsInline /> : bot.avatar ? <img src={bot.avatar} alt={bot.name} /> : <span className="talk-initial">{bot.name.slice(0, 1)}</span>}
      {m && (
        <div className="talk-mouth" style={{ left: `${m.x * 100}%`, top: `${m.y * 100}%`, width: `${m.w * 100}%`, height: `${m.h * 100}%` }} data-testid="employee-mouth">
          <span className="talk-mouth-inside" />
        </div>
      )}
    </div>
  );
}
