import { injectable } from 'inversify';
import { Subject } from 'rxjs';

export const MaterialStateToken = Symbol.for('material.State');

/** Lets a command ask the open materials page to load again. */
@injectable()
export class MaterialState {
  readonly refresh$ = new Subject<void>();
  refresh() {
    this.refresh$.next();
  }
}
