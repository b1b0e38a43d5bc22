import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { TOKENS, useObservable, useService, type ThemeService } from '../../../core';
import { formatCredits, shortDate } from '../format';

export interface DailySpend {
  date: string;
  spent: number;
}

const HEIGHT = 240;
/** Whole-number steps for the credits axis (no 0.5 credits). */
const Y_INCRS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 25_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000];
/** Day steps for the date axis. */
const X_INCRS = [1, 2, 3, 5, 7, 10, 14, 15, 30, 60, 90, 180, 365];

/** The theme's colours, read from the CSS variables the shell sets on <body>. */
function themeColours() {
  const css = getComputedStyle(document.body);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    accent: v('--accent', '#4c90f0'),
    muted: v('--text-muted', '#abb3bf'),
    border: v('--border', '#2f343c'),
    font: `12px ${css.fontFamily || 'sans-serif'}`,
  };
}

/**
 * Credits spent per day as bars (uPlot, canvas). Follows the theme: the chart is rebuilt from the CSS
 * variables whenever the theme changes, and resized with its container.
 */
export default function SpendChart({ points }: { points: DailySpend[] }) {
  const host = useRef<HTMLDivElement>(null);
  const themes = useService<ThemeService>(TOKENS.ThemeService);
  const theme = useObservable(themes.theme$, themes.current);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    // The shell swaps the theme classes in its own effect, which runs after ours: read the colours a frame later.
    const frame = requestAnimationFrame(() => {
      const c = themeColours();
      // Both axes: muted labels in the theme's font, no tick marks.
      const axisLook = { stroke: c.muted, font: c.font, ticks: { show: false } };
      const xs = points.map((_, i) => i);
      const ys = points.map((p) => p.spent);
      const tip = document.createElement('div');
      tip.className = 'credits-chart-tip';
      tip.style.display = 'none';

      const opts: uPlot.Options = {
        width: Math.max(200, el.clientWidth),
        height: HEIGHT,
        padding: [16, 12, 0, 0],
        legend: { show: false },
        cursor: { y: false, points: { show: false }, drag: { x: false, y: false, setScale: false } },
        select: { show: false, left: 0, top: 0, width: 0, height: 0 },
        scales: {
          x: { time: false, range: [-0.5, Math.max(0, points.length - 1) + 0.5] },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.15 : 10] },
        },
        series: [
          {},
          {
            label: '消耗积分',
            fill: c.accent,
            stroke: c.accent,
            width: 0,
            points: { show: false },
            paths: uPlot.paths.bars!({ size: [0.64, 40, 2], radius: [0.25, 0] }),
          },
        ],
        axes: [
          {
            ...axisLook,
            grid: { show: false },
            gap: 6,
            size: 28,
            space: 44,
            incrs: X_INCRS,
            values: (_u, splits) => splits.map((i) => (Number.isInteger(i) && points[i] ? shortDate(points[i].date) : '')),
          },
          {
            ...axisLook,
            grid: { stroke: c.border, width: 1 },
            border: { show: false },
            gap: 8,
            size: 56,
            space: 36,
            incrs: Y_INCRS,
            values: (_u, splits) => splits.map((v) => formatCredits(v)),
          },
        ],
        hooks: {
          setCursor: [
            (u) => {
              const i = u.cursor.idx;
              if (i == null || !points[i]) {
                tip.style.display = 'none';
                return;
              }
              tip.textContent = '';
              const date = document.createElement('div');
              date.className = 'credits-chart-tip-date';
              date.textContent = points[i].date;
              const value = document.createElement('div');
              value.textContent = `消耗 ${formatCredits(points[i].spent)} 积分`;
              tip.append(date, value);
              tip.style.display = 'block';
              const x = u.valToPos(i, 'x');
              const y = u.valToPos(points[i].spent, 'y');
              const width = u.over.clientWidth;
              const left = Math.min(Math.max(x, 70), width - 70);
              tip.style.left = `${left}px`;
              tip.style.top = `${Math.max(0, y - 8)}px`;
            },
          ],
        },
      };
      chart = new uPlot(opts, [xs, ys], el);
      chart.over.appendChild(tip);
      observer = new ResizeObserver(() => {
        const width = Math.max(200, el.clientWidth);
        if (chart && Math.abs(chart.width - width) > 1) chart.setSize({ width, height: HEIGHT });
      });
      observer.observe(el);
    });
    return () => {
      cancelAnimationFrame(frame);
      observer?.disconnect();
      chart?.destroy();
    };
  }, [points, theme]);

  return <div ref={host} className="credits-chart" data-testid="spend-chart" role="img" aria-label="每日积分消耗图" />;
}
