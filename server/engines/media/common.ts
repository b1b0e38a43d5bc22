/** What every command line of the media module shares. */
import { DEMUXER } from '../../infra/media-probe';

/** The sample rate of the sound we make. */
export const RATE = 44_100;
/** Frames a second of every video we encode. */
export const FPS = 25;
/** H.264 as every video we encode is made. */
export const X264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21', '-pix_fmt', 'yuv420p'];
/** What our mp4s end with: the index first, so a player starts before the whole file is there. */
export const FASTSTART = ['-movflags', '+faststart'];

/** A local input file with the demuxer of its extension, never one ffmpeg guesses from the bytes. */
export const input = (file: string, ext: string) => ['-f', DEMUXER[ext] ?? 'mov', '-i', file];
