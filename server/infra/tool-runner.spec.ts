/**
 * The media tool launcher: programs run in it with their output, exit and limits as if started here; it starts again
 * after it dies; and a program it started never outlives the server that asked for it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../../tests/support/wait';
import { runTool } from './tool-runner';

const LIMITS = { timeoutMs: 10_000, maxBuffer: 1024 * 1024 };
const sh = (script: string, options: Partial<Parameters<typeof runTool>[2]> = {}) => runTool('/bin/sh', ['-c', script], { ...LIMITS, ...options });

/** The live processes whose parent is `ppid`, with their command lines. */
function childrenOf(ppid: number): { pid: number; cmd: string }[] {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== ppid) return [];
      return [{ pid: Number(d), cmd: fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' ') }];
    } catch {
      return []; // ended meanwhile
    }
  });
}
const launcherOf = (pid: number) => childrenOf(pid).find((p) => p.cmd.includes('tool-launcher.mjs'));

describe('the media tool launcher', () => {
  it('gives back what a program printed and how it ended, and feeds it standard input', async () => {
    const run = await sh('echo out; echo err >&2; exit 3');
    expect(run).toMatchObject({ code: 3, signal: null, stderr: 'err\n' });
    expect(run.stdout.toString()).toBe('out\n');
    expect(run.reason).toBeUndefined();
    const bytes = Uint8Array.from([0, 1, 2, 250, 255]);
    expect([...(await runTool('/bin/cat', [], { ...LIMITS, input: bytes })).stdout]).toEqual([...bytes]);
  });

  it('gives output that typed arrays can view in place (audio is read as float and 16-bit samples)', async () => {
    for (const size of [5, 4096, 200_000]) {
      const { stdout } = await sh(`head -c ${size} /dev/zero`);
      expect(stdout.length).toBe(size);
      expect(() => new Float32Array(stdout.buffer, stdout.byteOffset, size >> 2)).not.toThrow();
    }
  });

  it('runs in the directory and environment of the call, the environment read at each run', async () => {
    process.env.AISA_TOOL_RUNNER_PROBE = 'first';
    expect((await sh('echo $AISA_TOOL_RUNNER_PROBE')).stdout.toString()).toBe('first\n');
    process.env.AISA_TOOL_RUNNER_PROBE = 'second';
    expect((await sh('echo $AISA_TOOL_RUNNER_PROBE; pwd', { cwd: '/tmp' })).stdout.toString()).toBe('second\n/tmp\n');
    delete process.env.AISA_TOOL_RUNNER_PROBE;
    expect((await sh('echo "[$ONLY]"', { env: { ONLY: 'this' } })).stdout.toString()).toBe('[this]\n');
  });

  it('ends a program past its time or its output limit, and says why; a missing program is a reason, not a throw', async () => {
    const slow = await runTool('/bin/sleep', ['5'], { ...LIMITS, timeoutMs: 100 });
    expect(slow).toMatchObject({ code: null, signal: 'SIGTERM', reason: 'timed out after 100 ms' });
    const chatty = await runTool('/usr/bin/yes', [], { ...LIMITS, maxBuffer: 1000, killSignal: 'SIGKILL' });
    expect(chatty).toMatchObject({ signal: 'SIGKILL', reason: 'printed more than 1000 bytes' });
    expect(chatty.stdout.length).toBeLessThanOrEqual(1000);
    const missing = await runTool('/nonexistent/tool', [], LIMITS);
    expect(missing.code).not.toBe(0);
    expect(missing.reason).toMatch(/ENOENT/);
  });

  it('starts again after the launcher dies; the runs it had under way fail', async () => {
    expect((await sh('true')).code).toBe(0);
    const launcher = launcherOf(process.pid);
    expect(launcher).toBeDefined();
    const pending = sh('sleep 30');
    await until(async () => childrenOf(launcher!.pid).length, (n) => n > 0, 10_000, 20);
    process.kill(launcher!.pid, 'SIGKILL');
    await expect(pending).rejects.toThrow('the media tool launcher stopped');
    expect((await sh('echo again')).stdout.toString()).toBe('again\n');
    expect(launcherOf(process.pid)?.pid).not.toBe(launcher!.pid);
  });

  it('a program it started does not outlive the server process that asked for it, even one killed with -9', async () => {
    const server = spawn(process.execPath, ['--import', 'tsx', '-e', "import('./server/infra/tool-runner.ts').then((m) => m.runTool('/bin/sleep', ['30'], { timeoutMs: 60_000, maxBuffer: 1000 }))"], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      stdio: 'ignore',
    });
    const launcher = await until(async () => launcherOf(server.pid!), Boolean, 30_000, 50);
    // Found once it runs the program (just forked, a child still shows the launcher's command line).
    const sleep = await until(async () => childrenOf(launcher!.pid).find((p) => p.cmd.includes('/bin/sleep 30')), Boolean, 10_000, 20);
    expect(sleep).toBeDefined();
    server.kill('SIGKILL');
    const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
    expect(await until(async () => alive(sleep!.pid) || alive(launcher!.pid), (a) => !a, 10_000, 50)).toBe(false);
  });
});
