/**
 * Runs the built CLI as a child process with RANKLAB_PROGRESS=1 and sends it SIGINT when a progress line
 * matches, so tests and bench/interrupt.ts can interrupt a chosen phase (index build, query loop, …).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { WorkProgress } from '../../src/core/util/cooperative';

/** RANKLAB_TEST_CLI runs the cases against another build (e.g. an older one, to see them fail there). */
const CLI = process.env.RANKLAB_TEST_CLI ?? resolve(__dirname, '../../dist/cli.js');

export interface CliRun {
  code: number | null;
  /** The signal that ended the process, when it did not exit by itself. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Progress lines seen, in order. */
  progress: WorkProgress[];
  /** performance.now() when the first SIGINT was sent, when the CLI said it is stopping, when it ended. */
  interruptedAt?: number;
  noticedAt?: number;
  endedAt: number;
}

export interface CliRunOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Send SIGINT when this returns true for a progress line (once), after `interruptDelayMs` (default 0). */
  interruptWhen?: (p: WorkProgress) => boolean;
  interruptDelayMs?: number;
  /** Send a second SIGINT as soon as the CLI says it is stopping. */
  secondInterruptOnNotice?: boolean;
  timeoutMs?: number;
}

export function runCli(args: string[], opts: CliRunOptions): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, RANKLAB_PROGRESS: '1', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    let pending = '';
    const progress: WorkProgress[] = [];
    let triggered = false;
    let interruptedAt: number | undefined;
    let noticedAt: number | undefined;
    const interrupt = () => {
      interruptedAt = performance.now();
      child.kill('SIGINT');
    };
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 600_000);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8');
      if (noticedAt === undefined && err.includes('interrupted: stopping')) {
        noticedAt = performance.now();
        if (opts.secondInterruptOnNotice) child.kill('SIGINT');
      }
      pending += d.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('ranklab-progress ')) continue;
        const p = JSON.parse(line.slice('ranklab-progress '.length)) as WorkProgress;
        progress.push(p);
        if (!triggered && opts.interruptWhen?.(p)) {
          triggered = true;
          if (opts.interruptDelayMs) setTimeout(interrupt, opts.interruptDelayMs);
          else interrupt();
        }
      }
    });
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: err, progress, interruptedAt, noticedAt, endedAt: performance.now() });
    });
  });
}
