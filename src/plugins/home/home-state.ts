import { injectable } from 'inversify';
import { BehaviorSubject } from 'rxjs';

export const HomeStateToken = Symbol.for('home.State');

/** Home tab (part 1 §4): 1 public avatars, 2 public voices. */
export type HomeTab = 1 | 2;
/** The spec's hs values: 1 landscape, 2 portrait (the default). */
export type Orientation = 1 | 2;

/** The home page's tab and orientation: kept while the panel is closed, set by the panel and by commands. */
@injectable()
export class HomeState {
  readonly tab$ = new BehaviorSubject<HomeTab>(1);
  readonly orientation$ = new BehaviorSubject<Orientation>(2);

  setTab(tab: HomeTab) {
    if (this.tab$.value !== tab) this.tab$.next(tab);
  }
  setOrientation(orientation: Orientation) {
    if (this.orientation$.value !== orientation) this.orientation$.next(orientation);
  }
}
