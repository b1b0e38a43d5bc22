import { inject, injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { API, FALLBACK_SITE_TITLE, type SiteInfo } from '../contract';
import { TOKENS, type ApiClient, type SiteService } from './tokens';

/** Site settings; failures are silently ignored (part 1 §8) and the title falls back to AI超级分身. */
@injectable()
export class RemoteSiteService implements SiteService {
  private readonly subject = new BehaviorSubject<SiteInfo | null>(null);
  readonly site$: Observable<SiteInfo | null> = this.subject.asObservable();

  constructor(@inject(TOKENS.ApiClient) private readonly api: ApiClient) {}

  async load(): Promise<void> {
    try {
      const site = await this.api.call(API.site.site, {}, { silent: true });
      this.subject.next(site);
      document.title = site.site_title || FALLBACK_SITE_TITLE;
    } catch {
      document.title = FALLBACK_SITE_TITLE;
    }
  }
}
