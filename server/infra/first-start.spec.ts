import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminCommand, firstStartLines } from './first-start';

describe('the first-start hint (issue 33)', () => {
  const cwd = '/srv/aisa';
  const start = { url: 'http://127.0.0.1:9090', role: 'all', database: 'pglite', users: 0, templateAgreements: [], noGuides: false };

  it('prints the plain command for the default ./data', () => {
    expect(adminCommand(path.join(cwd, 'data'), cwd, 'user create')).toBe('npm run admin -- user create');
    expect(adminCommand('data/', cwd, 'user create')).toBe('npm run admin -- user create');
  });

  it("carries the running server's DATA_DIR, absolute and quoted when it must be", () => {
    expect(adminCommand('/var/lib/aisa', cwd, 'user create')).toBe('DATA_DIR=/var/lib/aisa npm run admin -- user create');
    expect(adminCommand('/srv/aisa/my data', cwd, 'x')).toBe("DATA_DIR='/srv/aisa/my data' npm run admin -- x");
    expect(adminCommand("/tmp/it's", cwd, 'x')).toBe(`DATA_DIR='/tmp/it'\\''s' npm run admin -- x`);
    const lines = firstStartLines({ ...start, dataDir: '/var/lib/aisa' }, cwd);
    expect(lines[0]).toContain('http://127.0.0.1:9090');
    expect(lines).toContain('  DATA_DIR=/var/lib/aisa npm run admin -- user create --username 13800000000 --password <至少6位> --credits 1000');
    expect(lines).toContain('  DATA_DIR=/var/lib/aisa npm run admin -- code create --credits 500 --count 5');
  });

  it('tells the operator (not the users) which agreements are still templates and that /use has no tutorials', () => {
    const lines = firstStartLines({ ...start, users: 1, dataDir: '/var/lib/aisa', templateAgreements: ['eula', 'clone_usage'], noGuides: true }, cwd);
    expect(lines).toContain('  DATA_DIR=/var/lib/aisa npm run admin -- site set eula=@<文件> clone_usage=@<文件>');
    expect(lines).toContain('  DATA_DIR=/var/lib/aisa npm run admin -- guide add --category <分类> --name <名称> --cover <封面图片> --video <视频>');
  });

  it('says nothing about accounts once one exists', () => {
    expect(firstStartLines({ ...start, dataDir: '/var/lib/aisa', users: 1 }, cwd)).toHaveLength(1);
  });
});
