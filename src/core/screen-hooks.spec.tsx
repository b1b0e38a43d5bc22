import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useDeletionFlow, useScreen, useStore } from './screen-hooks';
import { DeletionFlow, RemoteStore } from './screen-state';
import type { Notifier } from './tokens';
import { reactHost } from '../../tests/support/react-host';

const view = reactHost();
const notifier: Notifier = { success: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('screen hooks', () => {
  it('a view makes its screen once, renders what its stores hold, and disposes the screen when it unmounts', async () => {
    const made: { store: RemoteStore<string>; dispose: () => void }[] = [];
    const create = () => {
      const screen = { store: new RemoteStore(async () => '已加载'), dispose: vi.fn() };
      made.push(screen);
      return screen;
    };
    function Probe({ n }: { n: number }) {
      const screen = useScreen(create);
      const { value, loading } = useStore(screen.store);
      return <span data-n={n}>{loading ? '加载中' : (value ?? '空')}</span>;
    }
    act(() => view.root.render(<Probe n={1} />));
    expect(view.host.textContent).toBe('空');
    act(() => made[0]!.store.reload());
    expect(view.host.textContent).toBe('加载中');
    await act(async () => undefined);
    expect(view.host.textContent).toBe('已加载');
    act(() => view.root.render(<Probe n={2} />));
    expect(made).toHaveLength(1);
    act(() => view.root.render(<span />));
    expect(made[0]!.dispose).toHaveBeenCalledTimes(1);
  });

  it('a deletion flow reads as ConfirmDelete takes it', async () => {
    const flow = new DeletionFlow<string>(notifier, async () => undefined, () => undefined);
    let seen: ReturnType<typeof useDeletionFlow<string>> | undefined;
    function Probe() {
      seen = useDeletionFlow(flow);
      return null;
    }
    act(() => view.root.render(<Probe />));
    act(() => seen!.ask('作品'));
    expect(seen!.target).toBe('作品');
    await act(async () => seen!.confirm());
    expect(seen!.target).toBeNull();
  });
});
