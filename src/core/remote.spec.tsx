import 'reflect-metadata';
import { act } from 'react';
import { Container } from 'inversify';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAction, useDeletion, useRenaming } from './action';
import { MSG } from '../contract';
import { RxPollingService } from './polling-service';
import { ContainerProvider, useSubscription } from './react';
import { usePagedList, useRemote, type Page } from './remote';
import { TOKENS, type Notifier } from './tokens';
import { reactHost } from '../../tests/support/react-host';

const view = reactHost();
let notes: string[];

beforeEach(() => {
  notes = [];
});
afterEach(() => {
  vi.useRealTimers();
});

/** Renders `hook` in a component with the core services it needs; `result()` is its last answer. */
function renderHook<P, R>(hook: (props: P) => R, props: P) {
  const container = new Container();
  container.bind(TOKENS.PollingService).toConstantValue(new RxPollingService());
  const notifier: Notifier = { success: (m) => notes.push(`success:${m}`), info: (m) => notes.push(`info:${m}`), warn: () => undefined, error: () => undefined };
  container.bind(TOKENS.Notifier).toConstantValue(notifier);
  let last: R;
  function Probe(p: { props: P }) {
    last = hook(p.props);
    return null;
  }
  const render = (next: P) =>
    act(() =>
      view.root.render(
        <ContainerProvider container={container}>
          <Probe props={next} />
        </ContainerProvider>,
      ),
    );
  render(props);
  return { result: () => last, rerender: render };
}

/** Lets pending promises settle (and fake timers move) inside act. */
const settle = (ms = 0) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

describe('useRemote', () => {
  beforeEach(() => vi.useFakeTimers());

  it('loads for a key, says loading in the very render that changed it, keeps the last value while reloading', async () => {
    const load = vi.fn(async (key: string) => `value of ${key}`);
    const { result, rerender } = renderHook(({ key }: { key: string | null }) => useRemote(key, () => load(key!)), { key: null as string | null });
    expect(result().remote).toEqual({ state: 'idle' });
    expect(load).not.toHaveBeenCalled();

    rerender({ key: 'a' });
    expect(result().loading).toBe(true);
    await settle();
    expect(result()).toMatchObject({ value: 'value of a', loaded: true, loading: false, error: null });

    rerender({ key: 'b' });
    expect(result()).toMatchObject({ value: 'value of a', loading: true });
    await settle();
    expect(result().value).toBe('value of b');

    act(() => result().reload());
    expect(result().remote).toEqual({ state: 'loading', value: 'value of b' });
    await settle();
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('keeps the server message on failure, and starts a new key empty when asked to', async () => {
    let fail = false;
    const { result, rerender } = renderHook(
      ({ key }: { key: string }) =>
        useRemote(key, async () => {
          if (fail) throw new Error('服务器繁忙');
          return [key];
        }, { clearOnKeyChange: true }),
      { key: 'a' },
    );
    await settle();
    expect(result().value).toEqual(['a']);
    fail = true;
    rerender({ key: 'b' });
    expect(result()).toMatchObject({ value: undefined, loaded: false, loading: true });
    await settle();
    expect(result()).toMatchObject({ error: '服务器繁忙', loading: false, loaded: false });
  });

  it('polls while the answer says so, through the PollingService, and stops when it no longer does', async () => {
    const answers = [['processing'], ['processing'], ['done']];
    const load = vi.fn(async () => answers.shift() ?? ['done']);
    const { result } = renderHook(() => useRemote('list', load, { poll: { intervalMs: 1000, keepGoing: (v: string[]) => v.includes('processing') } }), undefined);
    await settle();
    expect(result()).toMatchObject({ value: ['processing'], polling: true });
    // The first tick passes the answer just shown on: nothing is asked at once.
    expect(load).toHaveBeenCalledTimes(1);
    await settle(1000);
    expect(load).toHaveBeenCalledTimes(2);
    await settle(1000);
    expect(result()).toMatchObject({ value: ['done'], polling: false });
    await settle(5000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('stops polling when stop$ emits and when the view unmounts', async () => {
    const load = vi.fn(async () => ['processing']);
    const stop$ = new Subject<void>();
    renderHook(() => useRemote('list', load, { poll: { intervalMs: 1000, keepGoing: () => true, stop$ } }), undefined);
    await settle();
    await settle(1000);
    await settle(1000);
    expect(load).toHaveBeenCalledTimes(3);
    stop$.next();
    await settle(5000);
    expect(load).toHaveBeenCalledTimes(3);

    const again = vi.fn(async () => ['processing']);
    renderHook(() => useRemote('other', again, { poll: { intervalMs: 1000, keepGoing: () => true } }), undefined);
    await settle();
    await settle(1000);
    expect(again).toHaveBeenCalledTimes(2);
    act(() => view.root.render(null));
    await settle(5000);
    expect(again).toHaveBeenCalledTimes(2);
  });
});

describe('usePagedList', () => {
  beforeEach(() => vi.useFakeTimers());
  type Item = { id: number; key: string };

  it('appends pages, reloads every loaded page, and a new key starts from page 1', async () => {
    const asked: string[] = [];
    const fetchPage = (key: string) => async (page: number): Promise<Page<Item>> => {
      asked.push(`${key}${page}`);
      const items = [1, 2].map((i) => ({ id: (page - 1) * 2 + i, key }));
      return { items, total: 5 };
    };
    const { result, rerender } = renderHook(({ key }: { key: string }) => usePagedList<Item, Page<Item>>(key, fetchPage(key)), { key: 'a' });
    await settle();
    expect(result()).toMatchObject({ hasMore: true });
    expect(result().items.map((i) => i.id)).toEqual([1, 2]);
    act(() => result().loadMore());
    expect(result().loadingMore).toBe(true);
    await settle();
    expect(result().items.map((i) => i.id)).toEqual([1, 2, 3, 4]);
    act(() => result().reload());
    await settle();
    expect(asked).toEqual(['a1', 'a2', 'a1', 'a2']);
    expect(result().items).toHaveLength(4);

    rerender({ key: 'b' });
    expect(result().loaded).toBe(false);
    await settle();
    expect(asked.slice(4)).toEqual(['b1']);
    expect(result().items.map((i) => i.key)).toEqual(['b', 'b']);
  });

  it('without a total, trusts the last page to say whether more follow', async () => {
    const { result } = renderHook(
      () => usePagedList<Item, Page<Item>>('x', async (page) => ({ items: page === 1 ? [{ id: 1, key: 'x' }] : [], more: page === 1 })),
      undefined,
    );
    await settle();
    expect(result().hasMore).toBe(true);
    act(() => result().loadMore());
    await settle();
    expect(result().hasMore).toBe(false);
  });
});

describe('useAction', () => {
  it('is busy while the call runs, says the success and runs what follows; a failure only answers false', async () => {
    const { result } = renderHook(() => useAction(), undefined);
    let finish!: () => void;
    const then = vi.fn();
    let done!: Promise<boolean>;
    act(() => {
      done = result().run(() => new Promise<void>((resolve) => (finish = resolve)), { success: '删除成功', then });
    });
    expect(result().busy).toBe(true);
    await act(async () => {
      finish();
      await done;
    });
    expect(await done).toBe(true);
    expect(result().busy).toBe(false);
    expect(notes).toEqual(['success:删除成功']);
    expect(then).toHaveBeenCalledTimes(1);

    let failed!: boolean;
    await act(async () => {
      failed = await result().run(() => Promise.reject(new Error('名称已存在')), { success: '重命名成功', then });
    });
    expect(failed).toBe(false);
    expect(notes).toEqual(['success:删除成功']);
    expect(then).toHaveBeenCalledTimes(1);
    expect(result().busy).toBe(false);
  });
});

describe('useDeletion', () => {
  it('asks about one item, deletes it with 删除成功 and runs what follows; cancelling says so', async () => {
    const removed: number[] = [];
    const after = vi.fn();
    const { result } = renderHook(() => useDeletion<{ id: number }>(async (item) => void removed.push(item.id), after), undefined);
    act(() => result().ask({ id: 7 }));
    expect(result().target).toEqual({ id: 7 });
    act(() => result().cancel());
    expect(result().target).toBeNull();
    expect(notes).toEqual([`info:${MSG.deleteCancelled}`]);

    act(() => result().ask({ id: 8 }));
    await act(async () => result().confirm());
    expect(removed).toEqual([8]);
    expect(after).toHaveBeenCalledWith({ id: 8 });
    expect(result().target).toBeNull();
    expect(notes).toEqual([`info:${MSG.deleteCancelled}`, `success:${MSG.deleteSucceeded}`]);
  });
});

describe('useRenaming', () => {
  it('opens the dialog on one item, saves the new name with 重命名成功 and runs what follows; closing forgets the item', async () => {
    const renamed: string[] = [];
    const after = vi.fn();
    const { result } = renderHook(() => useRenaming<{ id: number }>(async (item, name) => void renamed.push(`${item.id}:${name}`), after), undefined);
    act(() => result().ask({ id: 7 }));
    expect(result().dialog.item).toEqual({ id: 7 });
    act(() => result().dialog.onClose());
    expect(result().dialog.item).toBeNull();

    let saved!: boolean;
    await act(async () => {
      saved = await result().dialog.onSave({ id: 8 }, '新名字');
    });
    expect(saved).toBe(true);
    expect(renamed).toEqual(['8:新名字']);
    expect(after).toHaveBeenCalledTimes(1);
    expect(notes).toEqual([`success:${MSG.renameSucceeded}`]);
  });
});

describe('useSubscription', () => {
  it('hands each value to the latest handler while mounted', () => {
    const changed$ = new Subject<number>();
    const seen: string[] = [];
    const { rerender } = renderHook(({ tag }: { tag: string }) => useSubscription(changed$, (n) => seen.push(`${tag}${n}`)), { tag: 'a' });
    act(() => changed$.next(1));
    rerender({ tag: 'b' });
    act(() => changed$.next(2));
    act(() => view.root.render(null));
    changed$.next(3);
    expect(seen).toEqual(['a1', 'b2']);
  });
});
