/**
 * A sound's waveform, for every panel that plays one (voice samples, dubs): peaks decoded in the browser and drawn as
 * bars, the played part in the accent colour; optional markers (a dub's lines) that seek when clicked.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { TOKENS, type ThemeService } from './tokens';
import { useObservable, useService } from './react';
import { canDecodeAudio, loadWaveform, resamplePeaks, type WaveformData } from './waveform-data';
import './waveform.css';

export type WaveformLoad = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; data: WaveformData } | { state: 'error' };

/** The waveform of a file, decoded when `enabled` (and kept in the module cache); `source` is a URL or a local file. */
export function useWaveform(key: string | null, source: string | Blob | null, enabled = true): WaveformLoad {
  const [load, setLoad] = useState<WaveformLoad>({ state: 'idle' });
  const sourceRef = useRef(source);
  sourceRef.current = source;
  const ready = enabled && key !== null && source !== null && source !== '';
  useEffect(() => {
    if (!ready || !key) {
      setLoad({ state: 'idle' });
      return;
    }
    if (!canDecodeAudio()) {
      setLoad({ state: 'error' });
      return;
    }
    let live = true;
    setLoad({ state: 'loading' });
    loadWaveform(key, sourceRef.current!).then(
      (data) => live && setLoad({ state: 'ready', data }),
      () => live && setLoad({ state: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [key, ready]);
  return load;
}

const BAR = 2;
const GAP = 1;

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

/** A place marked on the waveform: where (0..1 of the length), its short label, and whether it is the current one. */
export interface WaveformMarker {
  at: number;
  label: string;
  title?: string;
  active?: boolean;
}

/**
 * Peaks drawn as bars on a canvas, the played part in the accent colour. Colours come from the theme's CSS
 * variables (--accent, --wave-bar), so both themes work and a theme switch redraws. A click or the arrow keys seek;
 * a marker's flag calls `onMarker` with its index.
 */
export function Waveform({
  load,
  progress = 0,
  height = 48,
  onSeek,
  markers,
  onMarker,
  className,
  'data-testid': testId,
}: {
  load: WaveformLoad;
  progress?: number;
  height?: number;
  onSeek?: (fraction: number) => void;
  markers?: readonly WaveformMarker[];
  onMarker?: (index: number) => void;
  className?: string;
  'data-testid'?: string;
}) {
  const theme = useService<ThemeService>(TOKENS.ThemeService);
  const current = useObservable(theme.theme$, theme.current);
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const peaks = load.state === 'ready' ? load.data.peaks : null;
  useEffect(() => {
    const el = canvas.current;
    if (!el || width <= 0) return;
    // The body's theme class may change in the same tick as theme$: draw on the next frame.
    const frame = requestAnimationFrame(() => {
      const ratio = window.devicePixelRatio || 1;
      el.width = Math.round(width * ratio);
      el.height = Math.round(height * ratio);
      const ctx = el.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, width, height);
      const played = cssVar(el, '--accent', '#4c90f0');
      const rest = cssVar(el, '--wave-bar', 'rgba(128, 128, 128, 0.45)');
      const count = Math.max(1, Math.floor((width + GAP) / (BAR + GAP)));
      const bars = peaks ? resamplePeaks(peaks, count) : new Array<number>(count).fill(0);
      const mid = height / 2;
      const split = progress * width;
      for (let i = 0; i < bars.length; i++) {
        const x = i * (BAR + GAP);
        const h = Math.max(2, bars[i]! * (height - 4));
        ctx.fillStyle = x + BAR / 2 <= split ? played : rest;
        ctx.beginPath();
        if (typeof ctx.roundRect === 'function') ctx.roundRect(x, mid - h / 2, BAR, h, 1);
        else ctx.rect(x, mid - h / 2, BAR, h);
        ctx.fill();
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [peaks, progress, width, height, current]);

  const seekAt = (e: MouseEvent<HTMLDivElement>) => {
    if (!onSeek || !peaks) return;
    const r = e.currentTarget.getBoundingClientRect();
    if (r.width > 0) onSeek((e.clientX - r.left) / r.width);
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!onSeek || !peaks) return;
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      onSeek(Math.max(0, Math.min(1, progress + (e.key === 'ArrowRight' ? 0.05 : -0.05))));
    }
  };
  const seekable = Boolean(onSeek && peaks);

  return (
    <div
      ref={wrap}
      className={['core-wave', load.state, seekable ? 'seekable' : '', markers?.length ? 'marked' : '', className ?? ''].filter(Boolean).join(' ')}
      style={{ height }}
      role={seekable ? 'slider' : 'img'}
      aria-label={seekable ? '播放进度' : '音频波形'}
      aria-valuemin={seekable ? 0 : undefined}
      aria-valuemax={seekable ? 100 : undefined}
      aria-valuenow={seekable ? Math.round(progress * 100) : undefined}
      tabIndex={seekable ? 0 : undefined}
      onClick={seekAt}
      onKeyDown={onKey}
      data-testid={testId}
      data-state={load.state}
    >
      <canvas ref={canvas} style={{ width: '100%', height }} />
      {markers?.map((m, i) => (
        <button
          key={`${i}-${m.at}`}
          type="button"
          className={`core-wave-mark ${m.active ? 'active' : ''}`}
          style={{ left: `${Math.max(0, Math.min(1, m.at)) * 100}%` }}
          title={m.title}
          aria-label={m.title ?? m.label}
          onClick={(e) => {
            e.stopPropagation();
            onMarker?.(i);
          }}
          data-testid="wave-marker"
        >
          <span className="core-wave-flag">{m.label}</span>
        </button>
      ))}
      {load.state === 'loading' && <span className="core-wave-note">波形加载中…</span>}
      {load.state === 'error' && <span className="core-wave-note">暂无法显示波形</span>}
    </div>
  );
}
