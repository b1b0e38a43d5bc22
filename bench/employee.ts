/**
 * `npm run bench -- employee`: on /employee/talking the first sentence of an answer should be heard within 2 s. A real
 * server (its own process), a bot without a voice of its own (so the offline voice speaks), a loopback chat peer that
 * streams the answer; timed from the moment the streamed text holds its first whole sentence (as the talking screen
 * cuts it) to the whole mp3 of that sentence received from /api/bot/speech — playable. Beside it, the same server's
 * answer to a plain authenticated call, measured in the same run, as the baseline of the ratio.
 */
import fs from 'node:fs';
import path from 'node:path';
import { API, LIMITS, type ChatStreamEvent } from '../src/contract';
import { takeSentences } from '../src/plugins/employee/sentences';
import { startServer } from '../tests/support/server';
import { inScratchDir } from './scratch-dir';

const ANSWER = '您好，我是小安，很高兴为您服务。我们的商品支持七天无理由退货，下单后四十八小时内发货。还有什么可以帮您？';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function employeeFirstAudio(): Promise<void> {
  const { ApiTestClient } = await import('../tests/support/app');
  const { makeImage } = await import('../tests/support/media');
  const { startOpenAiPeer } = await import('../tests/support/peers/openai-peer');
  const { probe } = await import('../server/infra/media-probe');
  await inScratchDir('employee', async (dir) => {
    const peer = await startOpenAiPeer();
    const server = await startServer({ webRoot: '/nonexistent', env: { LOG_LEVEL: 'warn' }, productCompilers: true });
    try {
      // A model that writes at a human-readable pace: a few characters every 30 ms.
      peer.behave({ kind: 'reply', text: ANSWER, chunkChars: 3, chunkDelayMs: 30 });
      await server.admin('site', 'set', `chat_base_url=${peer.url}`, `chat_api_key=${peer.apiKey}`);
      await server.admin('user', 'create', '--username', '13800000998', '--password', 'abc123', '--credits', '100000');
      const prompt = path.join(dir, 'prompt.txt');
      fs.writeFileSync(prompt, '你是小安，一名耐心的电商客服。');
      await server.admin('bot', 'add', '--type', '客服', '--name', '小安', '--desc', '售前售后', '--avatar', makeImage(path.join(dir, 'face.png')), '--prompt-file', prompt, '--credits', '0');
      const login = await new ApiTestClient(server.url).call(API.account.login, { username: '13800000998', password: 'abc123' });
      const client = new ApiTestClient(server.url, login.data.token);
      const token = login.data.token as string;
      const bot = (await client.call(API.bot.botList, {})).data.list[0] as { id: number };
      await client.call(API.bot.employ, { bot_id: bot.id });

      /** One answer: ms from its first whole sentence in the stream to that sentence's mp3 received whole. */
      async function firstAudio(): Promise<{ ms: number; seconds: number }> {
        const { cid, mid } = (await client.call(API.bot.sendMessage, { bot_id: bot.id, content: '可以退货吗' })).data as { cid: number; mid: number };
        const res = await fetch(`${server.url}${API.bot.stream.path}?${new URLSearchParams({ token, cid: String(cid), mid: String(mid) })}`);
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        let raw = '';
        let text = '';
        let sentence = '';
        let t0 = 0;
        while (!sentence) {
          const { value, done } = await reader.read();
          if (done) throw new Error('the answer ended before a whole sentence');
          raw += decoder.decode(value, { stream: true });
          for (let cut = raw.indexOf('\n\n'); cut >= 0; cut = raw.indexOf('\n\n')) {
            const block = raw.slice(0, cut);
            raw = raw.slice(cut + 2);
            if (block.startsWith('data: ')) text += (JSON.parse(block.slice(6)) as ChatStreamEvent).message;
          }
          sentence = takeSentences(text, 0, LIMITS.bot.sentenceMaxChars).sentences[0] ?? '';
          if (sentence) t0 = performance.now();
        }
        const speech = await fetch(`${server.url}${API.bot.speech.path}?${new URLSearchParams({ token, mid: String(mid), text: sentence })}`);
        const bytes = Buffer.from(await speech.arrayBuffer());
        const ms = performance.now() - t0;
        await reader.cancel();
        const file = path.join(dir, `first-${mid}.mp3`);
        fs.writeFileSync(file, bytes);
        const { duration } = await probe(file, 'mp3');
        if (!(speech.headers.get('content-type') ?? '').startsWith('audio/') || !(duration > 0)) throw new Error(`no playable audio: ${bytes.toString('utf8', 0, 200)}`);
        return { ms, seconds: duration };
      }

      await firstAudio(); // the offline voice's worker and WASM start once per server
      const runs: { ms: number; seconds: number }[] = [];
      for (let i = 0; i < 5; i++) runs.push(await firstAudio());
      const baseline: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        await client.call(API.bot.record, { page: 1, limit: 10 });
        baseline.push(performance.now() - start);
      }
      const ms = median(runs.map((r) => r.ms));
      const base = median(baseline);
      console.log(`\n(employee) first audio on /employee/talking, offline voice: from the answer's first whole sentence to its mp3 received whole`);
      console.log(`    ${(ms / 1000).toFixed(2)} s (median of 5; runs ${runs.map((r) => (r.ms / 1000).toFixed(2)).join(' / ')} s) for ${median(runs.map((r) => r.seconds)).toFixed(1)} s of speech — goal ≤ 2 s`);
      console.log(`    baseline, an authenticated call to the same server (bot.record): ${base.toFixed(1)} ms (median of 5); ratio ${(ms / base).toFixed(1)}×`);
    } finally {
      await server.stop();
      await peer.close();
    }
  });
}
