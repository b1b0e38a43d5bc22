import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { helperWebRoot } from '../support/build-global';

/** Text that exists only in the helper plugin's panel (src/plugins/helper/panels/HelperChat.tsx). */
const HELPER_MARKER = '合作站点专属的运营助手';
/** Text that exists only in the employee plugin (src/plugins/employee/panels/OfficePanel.tsx). */
const EMPLOYEE_MARKER = '聘用 AI 员工，面对面对话';

/** The build's scripts, by file name. */
function bundleFiles(dir: string): { name: string; text: string }[] {
  const assets = path.join(dir, 'assets');
  return fs
    .readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((name) => ({ name, text: fs.readFileSync(path.join(assets, name), 'utf8') }));
}

const bundleText = (dir: string) => bundleFiles(dir).map((f) => f.text).join('\n');

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
    // The chunks named, not the text: a failure says which files carry the development runtime.
    const devFiles = (dir: string) => bundleFiles(dir).filter((f) => f.text.includes('jsxDEV')).map((f) => f.name);
    expect(devFiles(inject('webRoot'))).toEqual([]);
    expect(devFiles(helper)).toEqual([]);
  });

  it('loads nothing from outside: no CDN address in the bundle', () => {
    const text = bundleText(inject('webRoot'));
    expect(text).not.toMatch(/cdn\.jsdelivr|unpkg\.com|cdnjs\.|fonts\.googleapis/);
  });
});
