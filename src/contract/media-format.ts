/**
 * The formats we store, recognized by their first bytes (never by a name or a client's Content-Type): the server
 * checks every upload with it, and the upload box reads the same bytes first so a text file named .mp4 is
 * refused before it is sent.
 */

/** How many first bytes sniffFormat needs. */
export const SNIFF_BYTES = 64;

const ascii = (head: Uint8Array, from: number, to: number) => String.fromCharCode(...head.subarray(from, to));

/** 'png' | 'jpg' | 'webp' | 'wav' | 'mp3' | 'mov' | 'm4a' | 'mp4', or null when the bytes are none of them. */
export function sniffFormat(head: Uint8Array): string | null {
  if (head.length >= 8 && head[0] === 0x89 && ascii(head, 1, 4) === 'PNG') return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'wav';
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0)) return 'mp3';
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'qt  ') return 'mov';
    if (brand.startsWith('M4A')) return 'm4a';
    return 'mp4';
  }
  return null;
}
