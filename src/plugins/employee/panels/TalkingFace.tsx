import { useEffect, useRef, useState } from 'react';
import type { BotView } from '../../../contract';
import { LoopingVideo } from '../../../core';
import type { Speaker } from '../speaker';

/**
 * The employee on screen while it speaks. A public avatar plays its loop (at rest under reduced motion); its mouth
 * region (from the avatar's face track) opens with the voice's loudness. The frame takes the video's own shape, so
 * the region's fractions land on the mouth whatever the avatar's orientation. A picture without a known mouth glows
 * with the voice instead.
 */
export function TalkingFace({ bot, speaker }: { bot: BotView; speaker: Speaker }) {
  const face = useRef<HTMLDivElement>(null);
  const [ratio, setRatio] = useState(3 / 4);
  useEffect(() => {
    // Written straight to the style every frame: a React render per audio frame would be wasted work.
    const sub = speaker.level$.subscribe((level) => face.current?.style.setProperty('--open', level.toFixed(3)));
    return () => sub.unsubscribe();
  }, [speaker]);
  const m = bot.mouth;
  return (
    <div className={`talk-face${m ? '' : ' still'}`} ref={face} style={{ aspectRatio: String(ratio) }} data-testid="employee-face">
      {bot.video ? (
        <LoopingVideo src={bot.video} poster={bot.avatar} onLoadedMetadata={(e) => e.currentTarget.videoWidth && setRatio(e.currentTarget.videoWidth / e.currentTarget.videoHeight)} />
      ) : bot.avatar ? (
        <img src={bot.avatar} alt={bot.name} />
      ) : (
        <span className="talk-initial">{bot.name.slice(0, 1)}</span>
      )}
      {m && (
        <div className="talk-mouth" style={{ left: `${m.x * 100}%`, top: `${m.y * 100}%`, width: `${m.w * 100}%`, height: `${m.h * 100}%` }} data-testid="employee-mouth">
          <span className="talk-mouth-inside" />
        </div>
      )}
    </div>
  );
}
