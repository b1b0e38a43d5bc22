/**
 * What the first start prints for the operator: where the server runs and what is left to set up (the first account,
 * the agreements still on their templates, tutorials), each as the command that does it: operator hints go here and
 * to the CLI, never to users' screens. The commands carry the running server's DATA_DIR when it is not the default: the CLI finds the server
 * (its URL, whatever PORT is) through that directory, and run without it would open another `./data` and create an
 * account the running server never sees.
 */
import path from 'node:path';

/** Quotes a value for a POSIX shell when it needs it. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `npm run admin -- <args>` as it must be typed for a server on `dataDir` (started from `cwd`). */
export function adminCommand(dataDir: string, cwd: string, args: string): string {
  const dir = path.resolve(cwd, dataDir);
  const prefix = dir === path.resolve(cwd, 'data') ? '' : `DATA_DIR=${shellWord(dir)} `;
  return `${prefix}npm run admin -- ${args}`;
}

export interface FirstStart {
  url: string;
  role: string;
  dataDir: string;
  database: string;
  users: number;
  /** Agreements (eula, privacy_agreement, clone_usage) still on their built-in templates. */
  templateAgreements: string[];
  /** No tutorial on /use yet. */
  noGuides: boolean;
}

/** The lines the server prints once it listens. */
export function firstStartLines(s: FirstStart, cwd: string): string[] {
  const lines = [`AI超级分身 is running at ${s.url}  (role ${s.role}, data ${s.dataDir}, database ${s.database})`];
  if (s.users === 0) {
    lines.push(
      'No account yet. In another terminal, in this folder, create the first one:',
      `  ${adminCommand(s.dataDir, cwd, 'user create --username 13800000000 --password <至少6位> --credits 1000')}`,
      'and redemption codes for registration:',
      `  ${adminCommand(s.dataDir, cwd, 'code create --credits 500 --count 5')}`,
    );
  }
  if (s.templateAgreements.length) {
    lines.push(
      'The agreements users accept are still the built-in templates; replace them with your own text (HTML files):',
      `  ${adminCommand(s.dataDir, cwd, `site set ${s.templateAgreements.map((key) => `${key}=@<文件>`).join(' ')}`)}`,
    );
  }
  if (s.noGuides) {
    lines.push('/use has no tutorials yet; add one with:', `  ${adminCommand(s.dataDir, cwd, 'guide add --category <分类> --name <名称> --cover <封面图片> --video <视频>')}`);
  }
  return lines;
}
