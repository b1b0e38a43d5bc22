import { injectable } from 'inversify';
import { Subject } from 'rxjs';

export const WorksStateToken = Symbol.for('works.State');
export const WORKS_ROUTE = '/works';

/** Lets a command ask the open works page to load again. */
@injectable()
export class WorksState {
  readonly refresh$ = new Subject<void>();
  refresh() {
    this.refresh$.next();
  }
}
