import { inject, injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { API, type SiteInfo } from '../contract';
import { TOKENS, type ApiClient, type SiteService } from './tokens';

/** Site settings; failures are silently ignored (part 1 §8). The shell titles the document from site_title. */
@injectable()
export class RemoteSiteService implements SiteService {
  private readonly subject = new BehaviorSubject<SiteInfo | null>(null);
  readonly site$: Observable<SiteInfo | null> = this.subject.asObservable();

  constructor(@inject(TOKENS.ApiClient) private readonly api: ApiClient) {}

  async load(): Promise<void> {
    try {
      const site = await this.api.call(API.site.site, {}, { silent: true });
      this.subject.next(site);
    } catch {
      // The shell keeps the fallback title.
    }
  }
}
