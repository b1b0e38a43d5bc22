// Setup file of the server and e2e projects: registered before the spec's own hooks, so it runs after them.
import { afterAll } from 'vitest';
import { measureFileCpu, measureTestCpu } from './file-cpu';
import { shortKeepAlive } from './http-pool';
import { removeTempDirs } from './temp-dirs';

afterAll(removeTempDirs);
measureFileCpu();
measureTestCpu();
shortKeepAlive();
