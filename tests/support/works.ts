/** The works list as the server specs read it: a user's latest works, and one work once its render has ended. */
import { API } from '../../src/contract';
import type { ApiTestClient } from './app';
import { ended } from './wait';

/** The user's latest 50 works, newest first, narrowed by the list call's filters in `extra`. */
export const worksOf = (c: ApiTestClient, extra: Record<string, unknown> = {}) =>
  c.call(API.works.list, { page: 1, limit: 50, ...extra }).then((r) => r.data.list as any[]);

/** The work once its render has ended (done or failed); undefined when it never showed in the list. */
export const finishedWork = (c: ApiTestClient, id: number, ms = 120_000, every?: number) => ended(() => worksOf(c), id, ms, every);
