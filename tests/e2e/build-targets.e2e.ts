import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { helperWebRoot } from '../support/build-global';

/** Text that exists only in the helper plugin's panel (src/plugins/helper/panels/HelperChat.tsx). */
const HELPER_MARKER = '合作站点专属的运营助手';
/** Text that exists only in the employee plugin (src/plugins/employee/panels/OfficePanel.tsx). */
const EMPLOYEE_MARKER = '聘用 AI 员工，面对面对话';

function bundleText(dir: string): string {
  const assets = path.join(dir, 'assets');
  return fs
    .readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => fs.readFileSync(path.join(assets, f), 'utf8'))
    .join('\n');
}

describe('build targets (plugins.manifest.json)', () => {
  let helper = '';
  beforeAll(async () => {
    helper = await helperWebRoot(inject('webRoot'));
  }, 300_000);

  it('leaves the helper plugin out of the standard build and keeps the employee plugin', () => {
    const text = bundleText(inject('webRoot'));
    expect(text).not.toContain(HELPER_MARKER);
    expect(text).toContain(EMPLOYEE_MARKER);
  });

  it('leaves the employee plugin out of the helper build and keeps the helper plugin', () => {
    const text = bundleText(helper);
    expect(text).toContain(HELPER_MARKER);
    expect(text).not.toContain(EMPLOYEE_MARKER);
  });

  it('is the release build users get: React in its production build, not the development one (jsxDEV calls)', () => {
    const devFiles = (dir: string) => fs.readdirSync(path.join(dir, 'assets')).filter((f) => f.endsWith('.js') && fs.readFileSync(path.join(dir, 'assets', f), 'utf8').includes('jsxDEV'));
    expect(devFiles(inject('webRoot'))).toEqual([]);
    expect(devFiles(helper)).toEqual([]);
  });

  it('loads nothing from outside: no CDN address in the bundle', () => {
    const text = bundleText(inject('webRoot'));
    expect(text).not.toMatch(/cdn\.jsdelivr|unpkg\.com|cdnjs\.|fonts\.googleapis/);
  });
});
