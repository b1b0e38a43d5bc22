import { Icon } from '@blueprintjs/core';
import type { Voice } from '../../../contract';

/** Audio play state of a voice card (part 1 §4): idle 1, playing 3. */
const AudioState = { Idle: 1, Playing: 3 } as const;

/** Public voice cards: a click plays the sample, a second click stops it; one plays at a time. */
export function VoiceGrid({ voices, playingId, onToggle }: { voices: readonly Voice[]; playingId: number | null; onToggle: (voice: Voice) => void }) {
  if (voices.length === 0) return null;
  return (
    <div className="home-voice-grid" data-testid="voice-grid">
      {voices.map((voice) => {
        const playing = playingId === voice.id;
        const meta = voice.voice_channel_name || voice.version_name || '点击试听';
        return (
          <button
            key={voice.id}
            type="button"
            className={`home-voice-card${playing ? ' playing' : ''}`}
            data-testid="voice-card"
            data-id={voice.id}
            data-state={playing ? AudioState.Playing : AudioState.Idle}
            aria-pressed={playing}
            aria-label={`${playing ? '停止' : '试听'}：${voice.name}`}
            onClick={() => onToggle(voice)}
          >
            <span className="home-voice-icon">
              <Icon icon={playing ? 'pause' : 'play'} size={18} />
            </span>
            <span className="home-voice-text">
              <span className="home-voice-name">{voice.name}</span>
              <span className="home-voice-meta">{playing ? '播放中…' : meta}</span>
            </span>
            <span className={`home-voice-eq${playing ? ' on' : ''}`} aria-hidden>
              <i />
              <i />
              <i />
              <i />
            </span>
          </button>
        );
      })}
    </div>
  );
}
