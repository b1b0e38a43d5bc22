import { describe, expect, it } from 'vitest';
import { failedModuleUrl } from './lazy-chunk';

describe('failedModuleUrl', () => {
  it("reads the module's address from Chromium's and Firefox's messages, and nothing from a message without one", () => {
    expect(failedModuleUrl(new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:8123/assets/ProfilePanel-Bx1.js'))).toBe('http://127.0.0.1:8123/assets/ProfilePanel-Bx1.js');
    expect(failedModuleUrl(new TypeError('error loading dynamically imported module: https://example.com/assets/a-1.js'))).toBe('https://example.com/assets/a-1.js');
    expect(failedModuleUrl(new TypeError('Importing a module script failed.'))).toBeUndefined();
    expect(failedModuleUrl(new Error('Unable to preload CSS for /assets/a-1.css'))).toBeUndefined();
  });
});
