/**
 * One lip-sync render in a process of its own, so `npm run bench` can time the CPU it and its ffmpeg children
 * spend (bash's `time` counts reaped children), a figure the machine's other load does not inflate.
 * Usage: tsx bench/lipsync-render.ts <video> <faces> <audio.mp3> <output.mp4>; prints the result as JSON, with
 * `nodeCpu`: this process's own CPU seconds (the mouth curve and warp), so the rest of bash's figure is ffmpeg's;
 * `peakMb`: its peak resident memory.
 */
import { renderLipSync } from '../server/engines/lipsync';

const [video, faces, audio, output] = process.argv.slice(2);
if (!video || !faces || !audio || !output) throw new Error('usage: lipsync-render.ts <video> <faces> <audio.mp3> <output.mp4>');
const before = process.cpuUsage();
const result = await renderLipSync({ video, faces, audio, audioExt: 'mp3', output });
const { user, system } = process.cpuUsage(before);
// maxRSS (KiB): the peak resident memory of this process, which a streaming render keeps near a few frames.
console.log(JSON.stringify({ ...result, nodeCpu: (user + system) / 1e6, peakMb: process.resourceUsage().maxRSS / 1024 }));
