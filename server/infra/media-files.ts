/**
 * Media the server accepts from an operator's local files or serves from storage: the extension and the
 * Content-Type are always ours (from the file's first bytes), never a client's.
 */
import fs from 'node:fs';

export const MEDIA_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
};

/** Recognizes the formats we store by their magic bytes. */
export function sniffExtension(head: Buffer): string | null {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (ascii(0, 3) === 'ID3' || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0)) return 'mp3';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'qt  ') return 'mov';
    if (brand.startsWith('M4A')) return 'm4a';
    return 'mp4';
  }
  return null;
}

/** A file's first bytes (enough for sniffExtension). */
export function readFileHead(path: string, bytes = 64): Buffer {
  const fd = fs.openSync(path, 'r');
  try {
    const head = Buffer.alloc(bytes);
    return head.subarray(0, fs.readSync(fd, head, 0, bytes, 0));
  } finally {
    fs.closeSync(fd);
  }
}

export const sniffFile = (path: string): string | null => sniffExtension(readFileHead(path));

export const storageUrl = (key: string) => (key ? `/storage/${key}` : '');
