import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import { NEVER } from 'rxjs';
import { RxPollingService } from './polling-service';

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('PollingService (marbles)', () => {
  it('polls every interval while the condition holds and ends with the value that stops it', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const answers = [2, 1, 0, 7];
      let call = 0;
      const polled = new RxPollingService(scheduler).poll(() => cold('(a|)', { a: answers[call++]! }), {
        intervalMs: 10,
        keepGoing: (v) => v > 0,
        stop$: NEVER,
      });
      expectObservable(polled).toBe('a 9ms b 9ms (c|)', { a: 2, b: 1, c: 0 });
    });
  });

  it('stops when the panel closes', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const polled = new RxPollingService(scheduler).poll(() => cold('(a|)', { a: 1 }), { intervalMs: 10, keepGoing: () => true, stop$: cold('25ms x') });
      expectObservable(polled).toBe('a 9ms a 9ms a 4ms |', { a: 1 });
    });
  });

  it('does not overlap a slow answer with the next tick', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const polled = new RxPollingService(scheduler).poll(() => cold('15ms (a|)', { a: 1 }), { intervalMs: 10, keepGoing: () => true, stop$: cold('40ms x') });
      expectObservable(polled).toBe('15ms a 19ms a 4ms |', { a: 1 });
    });
  });

  it('keeps polling after a failed call', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      let call = 0;
      const polled = new RxPollingService(scheduler).poll(() => (call++ === 1 ? cold('#') : cold('(a|)', { a: call })), {
        intervalMs: 10,
        keepGoing: () => true,
        stop$: cold('25ms x'),
      });
      expectObservable(polled).toBe('a 19ms b 4ms |', { a: 1, b: 3 });
    });
  });
});
