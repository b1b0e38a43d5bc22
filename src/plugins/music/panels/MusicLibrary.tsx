/** 音乐库: the operator's published tracks and the user's own marked as background music, each to listen to; what every music picker offers. */
import { Button, NonIdealState, Tag } from '@blueprintjs/core';
import { formatClock, useStore, type AudioPlayer } from '../../../core';
import type { MusicScreen } from '../music-state';
import { trackKey } from '../music-view';

export function MusicLibrary({ screen, player }: { screen: MusicScreen; player: AudioPlayer }) {
  const library = useStore(screen.library);
  const list = library.value ?? [];
  return (
    <section className="tool-card mus-library" data-testid="music-library">
      <header className="mus-card-head">
        <h3>音乐库</h3>
        <span className="mus-note">配音、视频创作与多场景创作的背景音乐都从这里选</span>
      </header>
      {list.length === 0 ? (
        <NonIdealState icon="music" description={library.loaded ? '暂无曲目；把自己的作品「用作背景音乐」后也会出现在这里' : '加载中…'} className="mus-empty" />
      ) : (
        <ul className="mus-tracks">
          {list.map((t) => {
            const key = trackKey(t.id);
            const playing = player.state.key === key && player.state.playing;
            return (
              <li key={t.id} className="mus-track" data-testid="music-library-track" data-id={t.id}>
                <Button variant="minimal" icon={playing ? 'pause' : 'play'} aria-label={playing ? '暂停' : '试听'} onClick={() => player.toggle(key, t.url)} data-testid="music-library-play" />
                <span className="mus-track-name">{t.name}</span>
                {t.mood && <Tag minimal round>{t.mood}</Tag>}
                <Tag minimal round intent={t.source === 'mine' ? 'primary' : 'none'}>{t.source === 'mine' ? '我的' : '曲库'}</Tag>
                <span className="mus-track-time">{formatClock(t.duration)}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
