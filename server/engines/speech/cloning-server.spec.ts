import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/contract';
import { scratchDir, toneMp3 } from '../../../tests/support/engine-spec';
import { startFishSpeechPeer } from '../../../tests/support/peers/fish-speech-peer';
import { makeAudio } from '../../../tests/support/media';
import { probe } from '../../infra/media-probe';
import { planSpeech, speakSteps, speechFilters } from './cloning-server';
import { FishSpeechEngine } from './fish-speech';
import { gptSovitsLanguage } from './gpt-sovits';

describe('speakSteps', () => {
  it('answers where each step landed: the server\'s real length at the speed the filters give it, the silences between', async () => {
    const { out, remove } = scratchDir('aisa-speak-steps-');
    const wav = fs.readFileSync(makeAudio(out('two-seconds.wav'), { seconds: 2 }));
    const output = out('spoken.mp3');
    const params = { rate: 2, volume: 1, pitch: 1.2, language: '', emotion: '' };
    const stretches = await speakSteps([{ text: '一' }, { silence: 0.5 }, { text: '二' }], async () => wav, params, output, false);
    // Twice as fast: each 2 s answer lasts 1 s (the pitch's resampling is undone by its tempo step).
    expect(stretches).toEqual([{ text: '一', start: 0, end: 1 }, { text: '二', start: 1.5, end: 2.5 }]);
    expect((await probe(output, 'mp3')).duration).toBeCloseTo(2.5, 1);
    remove();
  });
});

describe('planSpeech', () => {
  it('turns pause markers into silences (touching ones summed, capped) between spoken stretches', () => {
    expect(planSpeech('你好<#1#><#0.5#>世界<#99#>', 200)).toEqual([{ text: '你好' }, { silence: 1.5 }, { text: '世界' }, { silence: LIMITS.pauseMaxSeconds }]);
    expect(planSpeech('<#2#>开头', 200)).toEqual([{ silence: 2 }, { text: '开头' }]);
  });

  it('drops stretches with nothing to say', () => {
    expect(planSpeech('你好<#1#>。，<#1#>再见', 200)).toEqual([{ text: '你好' }, { silence: 2 }, { text: '再见' }]);
    expect(planSpeech('<#1#>  ', 200).some((s) => 'text' in s)).toBe(false);
  });

  it('cuts long text at sentence ends within the limit, then at commas, then hard', () => {
    const sentence = '今天我们来聊一聊数字人。';
    const steps = planSpeech(sentence.repeat(10), 50);
    for (const step of steps) {
      expect('text' in step && step.text.length <= 50 && step.text.endsWith('。')).toBe(true);
    }
    expect(steps.map((s) => ('text' in s ? s.text : '')).join('')).toBe(sentence.repeat(10));
    const commas = planSpeech('一二三四五六七八九十，'.repeat(10), 25);
    expect(commas.every((s) => 'text' in s && s.text.endsWith('，'))).toBe(true);
    expect(planSpeech('字'.repeat(120), 50).map((s) => ('text' in s ? s.text.length : 0))).toEqual([50, 50, 20]);
  });
});

describe('speechFilters', () => {
  const tempo = (filters: string[]) => filters.filter((f) => f.startsWith('atempo=')).reduce((product, f) => product * Number(f.slice(7)), 1);

  it('leaves speech alone at the defaults', () => {
    expect(speechFilters({ rate: 1, pitch: 1 }, false)).toEqual([]);
  });

  it('speeds up by tempo unless the server did, and moves pitch without moving the pace', () => {
    expect(tempo(speechFilters({ rate: 2, pitch: 1 }, false))).toBeCloseTo(2);
    expect(speechFilters({ rate: 2, pitch: 1 }, true)).toEqual([]);
    const up = speechFilters({ rate: 1, pitch: 1.5 }, false);
    expect(up.slice(0, 2)).toEqual(['asetrate=66150', 'aresample=44100']);
    expect(tempo(up)).toBeCloseTo(1 / 1.5);
  });

  it('keeps each tempo step within what ffmpeg accepts', () => {
    const low = speechFilters({ rate: 0.5, pitch: 2 }, false);
    const high = speechFilters({ rate: 2, pitch: 0.1 }, false);
    for (const f of [...low, ...high].filter((x) => x.startsWith('atempo='))) {
      expect(Number(f.slice(7))).toBeGreaterThanOrEqual(0.5);
      expect(Number(f.slice(7))).toBeLessThanOrEqual(2);
    }
    expect(tempo(low)).toBeCloseTo(0.25);
    expect(tempo(high)).toBeCloseTo(20);
  });
});

describe('gptSovitsLanguage', () => {
  it('maps our language values to api_v2 text_lang words, auto otherwise', () => {
    expect(['cmn', 'zh', 'yue', 'en-us', 'ja', 'ko', '', 'fr'].map(gptSovitsLanguage)).toEqual(['zh', 'zh', 'yue', 'en', 'ja', 'ko', 'auto', 'auto']);
  });
});

describe('fish-speech clones on the shared volume', () => {
  it('discarding a voice deletes its sample and the server\'s prepared copy; a refused sample leaves nothing', async () => {
    const peer = await startFishSpeechPeer();
    const { out, remove } = scratchDir('aisa-fish-speech-discard-');
    const files = (folder: string) => fs.readdirSync(path.join(peer.dataDir, folder));
    try {
      await toneMp3(out('sample.mp3'), 4);
      const sample = { file: out('sample.mp3'), ext: 'mp3', name: '临时', trainingKey: 'tr1' };
      const engine = new FishSpeechEngine({ base_url: peer.url, share_dir: peer.dataDir });
      const state = await engine.clone(sample);
      if (state.state !== 'ready') throw new Error(`expected a ready voice, got ${state.state}`);
      expect([files('origin_audio').length, files('format_audio').length]).toEqual([1, 1]);
      await engine.discard(state.voice);
      expect([files('origin_audio'), files('format_audio')]).toEqual([[], []]);
      await engine.discard(state.voice);

      peer.failTraining = true;
      expect((await engine.clone(sample)).state).toBe('failed');
      expect(files('origin_audio')).toEqual([]);
    } finally {
      await peer.close();
      remove();
    }
  });
});
