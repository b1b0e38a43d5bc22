/**
 * One lip-sync render in a process of its own, so `npm run bench` can time the CPU it and its ffmpeg children
 * spend (bash's `time` counts reaped children), a figure the machine's other load does not inflate.
 * Usage: tsx bench/lipsync-render.ts <video> <faces> <audio.mp3> <output.mp4>; prints the result as JSON.
 */
import { renderLipSync } from '../server/engines/lipsync';

const [video, faces, audio, output] = process.argv.slice(2);
if (!video || !faces || !audio || !output) throw new Error('usage: lipsync-render.ts <video> <faces> <audio.mp3> <output.mp4>');
console.log(JSON.stringify(await renderLipSync({ video, faces, audio, audioExt: 'mp3', output })));
