import { describe, expect, it } from 'vitest';
import { lastSentence, takeSentences } from './sentences';

describe('the talking screen cuts a streamed answer into sentences', () => {
  it('speaks each sentence once it has ended, and the rest when the answer ends', () => {
    let text = '您好，我是小';
    let at = 0;
    const said: string[] = [];
    const feed = (more: string) => {
      text += more;
      const { sentences, next } = takeSentences(text, at, 200);
      said.push(...sentences);
      at = next;
    };
    feed('');
    expect(said).toEqual([]);
    feed('安。很高兴为您服务！还有');
    expect(said).toEqual(['您好，我是小安。', '很高兴为您服务！']);
    feed('什么问题吗');
    expect(lastSentence(text, at, 200)).toBe('还有什么问题吗');
  });

  it('skips stretches with nothing to say and cuts a long one at a comma, never past the limit', () => {
    expect(takeSentences('……。\n\n好的。', 0, 200).sentences).toEqual(['好的。']);
    const long = `${'很长的一段话'.repeat(3)}，${'后面还有'.repeat(5)}。`;
    const { sentences } = takeSentences(long, 0, 12);
    expect(sentences.length).toBeGreaterThan(1);
    for (const s of sentences) expect([...s].length).toBeLessThanOrEqual(12);
    expect(lastSentence('   ', 0, 200)).toBe('');
  });
});
