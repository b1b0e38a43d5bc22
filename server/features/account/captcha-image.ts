/**
 * The login captcha's picture (part 1 §9: 4 characters, 120×40): a PNG drawn here, with no font file and no
 * outside service. Characters come from a 5×7 dot font, scaled, sheared and offset one by one, over noise
 * lines and dots, so the answer is never in the reply as text.
 */
import { randomInt } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { LIMITS } from '../../../src/contract';

/** 5×7 glyphs of the captcha alphabet (uppercase without O, digits 1–9). */
const GLYPHS: Record<string, string[]> = {
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  B: ['11110', '10001', '10001', '11110', '10001', '10001', '11110'],
  C: ['01110', '10001', '10000', '10000', '10000', '10001', '01110'],
  D: ['11100', '10010', '10001', '10001', '10001', '10010', '11100'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  F: ['11111', '10000', '10000', '11110', '10000', '10000', '10000'],
  G: ['01110', '10001', '10000', '10111', '10001', '10001', '01111'],
  H: ['10001', '10001', '10001', '11111', '10001', '10001', '10001'],
  I: ['01110', '00100', '00100', '00100', '00100', '00100', '01110'],
  J: ['00111', '00010', '00010', '00010', '00010', '10010', '01100'],
  K: ['10001', '10010', '10100', '11000', '10100', '10010', '10001'],
  L: ['10000', '10000', '10000', '10000', '10000', '10000', '11111'],
  M: ['10001', '11011', '10101', '10101', '10001', '10001', '10001'],
  N: ['10001', '10001', '11001', '10101', '10011', '10001', '10001'],
  P: ['11110', '10001', '10001', '11110', '10000', '10000', '10000'],
  Q: ['01110', '10001', '10001', '10001', '10101', '10010', '01101'],
  R: ['11110', '10001', '10001', '11110', '10100', '10010', '10001'],
  S: ['01111', '10000', '10000', '01110', '00001', '00001', '11110'],
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  U: ['10001', '10001', '10001', '10001', '10001', '10001', '01110'],
  V: ['10001', '10001', '10001', '10001', '10001', '01010', '00100'],
  W: ['10001', '10001', '10001', '10101', '10101', '10101', '01010'],
  X: ['10001', '10001', '01010', '00100', '01010', '10001', '10001'],
  Y: ['10001', '10001', '01010', '00100', '00100', '00100', '00100'],
  Z: ['11111', '00001', '00010', '00100', '01000', '10000', '11111'],
  '1': ['00100', '01100', '00100', '00100', '00100', '00100', '01110'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  '3': ['11111', '00010', '00100', '00010', '00001', '10001', '01110'],
  '4': ['00010', '00110', '01010', '10010', '11111', '00010', '00010'],
  '5': ['11111', '10000', '11110', '00001', '00001', '10001', '01110'],
  '6': ['00110', '01000', '10000', '11110', '10001', '10001', '01110'],
  '7': ['11111', '00001', '00010', '00100', '01000', '01000', '01000'],
  '8': ['01110', '10001', '10001', '01110', '10001', '10001', '01110'],
  '9': ['01110', '10001', '10001', '01111', '00001', '00010', '01100'],
};

export function captchaAnswer(): string {
  const { alphabet, length } = LIMITS.captcha;
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
}

type Rgb = [number, number, number];

class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) this.pixels.set(background, i * 3);
  }

  dot(x: number, y: number, color: Rgb): void {
    const px = Math.round(x);
    const py = Math.round(y);
    if (px < 0 || py < 0 || px >= this.width || py >= this.height) return;
    this.pixels.set(color, (py * this.width + px) * 3);
  }

  line(x0: number, y0: number, x1: number, y1: number, color: Rgb): void {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let i = 0; i <= steps; i++) this.dot(x0 + ((x1 - x0) * i) / steps, y0 + ((y1 - y0) * i) / steps, color);
  }

  png(): Buffer {
    const row = this.width * 3;
    const raw = Buffer.alloc((row + 1) * this.height);
    for (let y = 0; y < this.height; y++) raw.set(this.pixels.subarray(y * row, (y + 1) * row), y * (row + 1) + 1); // filter 0
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
    return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const darkColor = (): Rgb => [randomInt(20, 120), randomInt(20, 120), randomInt(20, 120)];
const lightColor = (): Rgb => [randomInt(150, 230), randomInt(150, 230), randomInt(150, 230)];

/** The PNG of an answer, 120×40. */
export function captchaPng(answer: string): Buffer {
  const { width, height } = LIMITS.captcha;
  const canvas = new Canvas(width, height, [randomInt(235, 256), randomInt(235, 256), randomInt(235, 256)]);
  for (let i = 0; i < 6; i++) canvas.line(randomInt(width), randomInt(height), randomInt(width), randomInt(height), lightColor());
  for (let i = 0; i < 120; i++) canvas.dot(randomInt(width), randomInt(height), lightColor());

  const cell = width / answer.length;
  [...answer].forEach((char, index) => {
    const glyph = GLYPHS[char]!;
    const scale = 3 + randomInt(2) * 0.5; // 3 or 3.5 px a dot
    const shear = (randomInt(-30, 31) / 100) * scale;
    const left = index * cell + randomInt(3, Math.max(4, Math.floor(cell - 5 * scale - 1)));
    const top = randomInt(2, Math.max(3, Math.floor(height - 7 * scale - 1)));
    const color = darkColor();
    glyph.forEach((bits, gy) => {
      [...bits].forEach((bit, gx) => {
        if (bit !== '1') return;
        for (let sy = 0; sy < scale; sy++) {
          for (let sx = 0; sx < scale; sx++) {
            const y = gy * scale + sy;
            canvas.dot(left + gx * scale + sx + shear * (3.5 - y / scale), top + y, color);
          }
        }
      });
    });
  });
  for (let i = 0; i < 2; i++) canvas.line(0, randomInt(height), width - 1, randomInt(height), darkColor());
  return canvas.png();
}
