import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { fromWork } from '../works-view';
import type { Work } from '../../../contract';
import { WorkCard } from './WorkCard';
import { reactHost } from '../../../../tests/support/react-host';

const base: Work = { id: 7, name: '口播', url: '', cover: '', status: 1, api_name: '深度训练', api_key: 'fy', create_time: '2026-01-01 10:00:00' };
const noop = () => {};

describe('a work card in progress', () => {
  const view = reactHost();

  // Async act: Blueprint's icons load their paths after the first render.
  const show = async (work: Partial<Work>) => {
    await act(async () => view.root.render(<WorkCard item={fromWork({ ...base, ...work })} audio={false} onPlay={noop} onDownload={noop} onRename={noop} onDelete={noop} />));
    return {
      waiting: view.host.querySelector('[data-testid="work-waiting"]')?.textContent ?? '',
      remote: view.host.querySelector('[data-testid="work-remote-line"]')?.textContent ?? null,
    };
  };

  it('shows its place in the queue of a remote lip-sync engine under the channel\'s waiting line', async () => {
    const card = await show({ queue_ahead: 2 });
    expect(card.waiting).toContain('深度训练中，预计 6-10 分钟');
    expect(card.remote).toBe('排队中，前面还有 2 个');
    expect((await show({ queue_ahead: 0 })).remote).toBe('排队中，即将开始');
  });

  it('shows the engine\'s progress while it renders there', async () => {
    const card = await show({ status: 2, progress: 45 });
    expect(card.waiting).toContain('深度训练中');
    expect(card.remote).toBe('合成中 45%');
  });

  it('shows the progress and the time left of a render on this machine', async () => {
    const card = await show({ status: 2, api_key: 'local', progress: 40, seconds_left: 45 });
    expect(card.waiting).toContain('本地合成中');
    expect(card.remote).toBe('合成中 40%，剩余约 45 秒');
    expect((await show({ status: 2, api_key: 'local', progress: 10, seconds_left: 130 })).remote).toBe('合成中 10%，剩余约 3 分钟');
  });

  it('keeps each channel\'s own waiting line, with nothing more when the work is not on a remote engine', async () => {
    for (const [api, line] of [['ou', '排队训练中'], ['gj', '免费通道排队中'], ['df', '极速训练中'], ['fy', '深度训练中'], ['local', '本地合成中']]) {
      const card = await show({ api_key: api! });
      expect(card.waiting).toContain(line);
      expect(card.remote).toBeNull();
    }
  });

  it('drops the line once the work has ended', async () => {
    expect((await show({ status: 3, url: '/v.mp4', progress: 100 })).remote).toBeNull();
    expect((await show({ status: 4, reason: '唇形合成失败，积分已退回', queue_ahead: 1 })).remote).toBeNull();
  });
});
