import { pinyin } from 'pinyin-pro';

const HAN_RUN = /[\u3400-\u9fff]+/g;
/** The command list is re-published on every focus move; titles seldom change. */
const cache = new Map<string, string>();

/**
 * Pinyin search keys for a command (kbar keywords, comma separated): the full pinyin and the initials of the
 * whole text's Chinese and of each of its runs, so zuopin, wodezuopin and wdzp all find 前往：我的作品.
 */
export function pinyinKeywords(text: string): string {
  let keys = cache.get(text);
  if (keys === undefined) {
    keys = compute(text);
    cache.set(text, keys);
  }
  return keys;
}

function compute(text: string): string {
  const runs = text.match(HAN_RUN) ?? [];
  if (runs.length === 0) return '';
  const keys = new Set<string>();
  for (const words of [runs.join(''), ...runs]) {
    keys.add(pinyin(words, { toneType: 'none', type: 'array' }).join(''));
    keys.add(pinyin(words, { pattern: 'first', toneType: 'none', type: 'array' }).join(''));
  }
  return [...keys].join(',');
}
