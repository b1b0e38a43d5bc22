/**
 * (h) `npm run bench -- ocr`: the offline caption reader on the captioned test clip, for each frame reader tried:
 * video seconds read per wall second (two passes: locating the band on whole frames, then the band at 4 frames a
 * second, skimmed; the models' one-time load apart) and accuracy as the spec measures it. tesseract.js was tried and dropped
 * (see the README); it is measured again when it is installed (`npm install --no-save tesseract.js @tesseract.js-data/chi_sim`).
 */
import os from 'node:os';
import path from 'node:path';
import { CAPTIONED_CLIP, makeCaptionedClip, scoreCaptionReading } from '../tests/support/caption-media';
import { readCaptionsWith } from '../server/engines/ocr/read-captions';
import { paddleReader, type FrameReader } from '../server/engines/ocr/readers';
import { inScratchDir } from './scratch-dir';

interface TesseractLine {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}
interface TesseractWorker {
  recognize(file: string, options: object, output: object): Promise<{ data: { blocks: { paragraphs: { lines: TesseractLine[] }[] }[] | null } }>;
  terminate(): Promise<unknown>;
}

/** Tesseract 5 (LSTM) with chi_sim from @tesseract.js-data, when installed; null otherwise. */
async function tesseractReader(): Promise<FrameReader | null> {
  // Names in variables: the packages are not dependencies, so the type checker must not look for them.
  const [core, data] = ['tesseract.js', '@tesseract.js-data/chi_sim'];
  const T = (await import(core).catch(() => null)) as { createWorker(lang: string, oem: number, o: object): Promise<TesseractWorker> } | null;
  const lang = (await import(data).catch(() => null)) as { default: { langPath: string } } | null;
  if (!T || !lang) return null;
  const worker = await T.createWorker('chi_sim', 1, { langPath: lang.default.langPath, gzip: true, cacheMethod: 'none' });
  return {
    name: 'Tesseract 5 chi_sim (tesseract.js, WASM)',
    // Its confidences are on a scale of their own (a correct caption line scores 0.5–0.7): every line it reads counts.
    async read(file) {
      const { data: result } = await worker.recognize(file, {}, { blocks: true });
      return (result.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.map((l) => ({ text: l.text.replace(/\s/g, ''), score: 1, ...l.bbox }))));
    },
    close: () => worker.terminate().then(() => undefined),
  };
}

export async function captionReaderSpeed(): Promise<void> {
  await inScratchDir('ocr', async (dir) => {
    const clip = await makeCaptionedClip(path.join(dir, 'clip.mp4'));
    const c = CAPTIONED_CLIP;
    console.log(`\n(h) the offline caption reader on a ${c.seconds} s ${c.width}×${c.height} clip with ${c.captions.length} burned-in captions and a watermark (${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)})`);
    for (const make of [paddleReader, tesseractReader]) {
      const loadStart = performance.now();
      const reader = await make();
      if (!reader) {
        console.log('    tesseract.js: not installed (dropped; see the header of bench/ocr.ts to measure it again)');
        continue;
      }
      const load = (performance.now() - loadStart) / 1000;
      try {
        const start = performance.now();
        const reading = await readCaptionsWith(reader, clip, 'mp4', { workDir: dir });
        const wall = (performance.now() - start) / 1000;
        const score = scoreCaptionReading(reading);
        console.log(`    ${reader.name}: ${(c.seconds / wall).toFixed(2)} video s per wall s (${wall.toFixed(1)} s; model load ${load.toFixed(1)} s apart)`);
        console.log(`      caption characters in order ${(100 * score.inOrder).toFixed(1)}% (goal ≥ 90%), worst sentence time error ${score.worstTimeError.toFixed(2)} s (goal ≤ 0.5), watermark ${score.watermarkSeen ? 'read' : 'absent'}`);
        console.log(`      read: ${reading.sentences.map((s) => `[${s.start.toFixed(2)}–${s.end.toFixed(2)}] ${s.text}`).join(' | ')}`);
      } finally {
        await reader.close();
      }
    }
  });
}
