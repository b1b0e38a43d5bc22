import { describe, expect, it } from 'vitest';
import { computePeaks, resamplePeaks } from './waveform-data';

describe('waveform peaks', () => {
  it('takes the loudest magnitude per slice over all channels, scaled to 1', () => {
    const left = new Float32Array([0, 0.1, -0.2, 0, 0.5, -0.25, 0, 0]);
    const right = new Float32Array([0, 0, 0, 0.4, 0, 0, 0, -0.1]);
    expect(computePeaks([left, right], 4).map((p) => Math.round(p * 1000) / 1000)).toEqual([0.2, 0.8, 1, 0.2]);
  });

  it('keeps silence at 0 and handles empty input', () => {
    expect(computePeaks([new Float32Array(100)], 5)).toEqual([0, 0, 0, 0, 0]);
    expect(computePeaks([], 3)).toEqual([0, 0, 0]);
    expect(computePeaks([new Float32Array([1])], 0)).toEqual([]);
    // More bars than samples: every bar still reads at least one sample.
    expect(computePeaks([new Float32Array([0.5, 1])], 4)).toEqual([0.5, 0.5, 1, 1]);
  });

  it('reads long slices with a stride and stays bounded', () => {
    const data = new Float32Array(1_000_000).map((_, i) => Math.sin(i / 50));
    const peaks = computePeaks([data], 100, 500);
    expect(peaks).toHaveLength(100);
    expect(Math.max(...peaks)).toBe(1);
    expect(Math.min(...peaks)).toBeGreaterThan(0.9);
  });

  it('merges peaks down to the canvas width', () => {
    expect(resamplePeaks([0.1, 0.9, 0.3, 0.4], 2)).toEqual([0.9, 0.4]);
    expect(resamplePeaks([0.1, 0.2], 4)).toEqual([0.1, 0.2]);
    expect(resamplePeaks([], 3)).toEqual([0, 0, 0]);
  });
});
