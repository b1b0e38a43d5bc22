import { injectable } from 'inversify';
import { catchError, defer, EMPTY, exhaustMap, takeUntil, takeWhile, timer, type Observable, type ObservableInput, type SchedulerLike, asyncScheduler } from 'rxjs';
import type { PollingService } from './tokens';

@injectable()
export class RxPollingService implements PollingService {
  constructor(private readonly scheduler: SchedulerLike = asyncScheduler) {}

  poll<T>(fetch: () => ObservableInput<T>, options: { intervalMs: number; keepGoing: (value: T) => boolean; stop$: Observable<unknown> }): Observable<T> {
    return timer(0, options.intervalMs, this.scheduler).pipe(
      // A slow answer is not overlapped by the next tick.
      exhaustMap(() => defer(fetch).pipe(catchError(() => EMPTY))),
      takeWhile(options.keepGoing, true),
      takeUntil(options.stop$),
    );
  }
}
