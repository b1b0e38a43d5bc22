/**
 * Media the server accepts from an operator's local files or serves from storage: the extension and the
 * Content-Type are always ours (from the file's first bytes), never a client's.
 */
import fs from 'node:fs';
import { SNIFF_BYTES, sniffFormat } from '../../src/contract';

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

/** Recognizes the formats we store by their magic bytes (the contract's sniffer, shared with the upload box). */
export const sniffExtension = (head: Buffer): string | null => sniffFormat(head);

/** A file's first bytes (enough for sniffExtension). */
export function readFileHead(path: string, bytes = SNIFF_BYTES): Buffer {
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
