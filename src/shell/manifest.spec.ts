import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { resolveTarget, virtualModuleSource, type ManifestFile } from './manifest';
import { isHelperHost, pluginAllowedOnHost } from '../core/plugin';

const ROOT = path.resolve(__dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'plugins.manifest.json'), 'utf8')) as ManifestFile;

describe('plugins.manifest.json', () => {
  it('matches its JSON schema, and each entry file exists', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'plugins.manifest.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
    for (const p of manifest.plugins) expect(fs.existsSync(path.join(ROOT, p.entry)), p.entry).toBe(true);
    expect(manifest.helperHosts).toHaveLength(4);
  });

  it('bundles the employee plugin for the standard target and the helper plugin only for the helper target', () => {
    const standard = resolveTarget(manifest, 'standard').plugins.map((p) => p.id);
    const helper = resolveTarget(manifest, 'helper').plugins.map((p) => p.id);
    expect(standard).toContain('employee');
    expect(standard).not.toContain('helper');
    expect(helper).toContain('helper');
    expect(helper).not.toContain('employee');
  });

  it('generates imports of exactly the target plugins', () => {
    const src = virtualModuleSource(resolveTarget(manifest, 'standard'), (e) => `/root/${e}`);
    expect(src).toContain('/root/src/plugins/employee/index.ts');
    expect(src).not.toContain('/root/src/plugins/helper/index.ts');
  });

  it('refuses unknown targets and exclusions of unknown plugins', () => {
    expect(() => resolveTarget(manifest, 'nope')).toThrow(/unknown build target/);
    expect(() => resolveTarget({ ...manifest, targets: { x: { exclude: ['ghost'] } } }, 'x')).toThrow(/unknown plugin/);
  });

  it('checks the host at run time', () => {
    expect(isHelperHost('HELPER1.example.com:8080', manifest.helperHosts)).toBe(true);
    expect(isHelperHost('avatar.example.com', manifest.helperHosts)).toBe(false);
    expect(pluginAllowedOnHost({ id: 'helper', hostRule: 'helper' }, false)).toBe(false);
    expect(pluginAllowedOnHost({ id: 'employee', hostRule: 'employee' }, true)).toBe(false);
    expect(pluginAllowedOnHost({ id: 'login' }, true)).toBe(true);
  });
});
