/**
 * Runs the built CLI as a child process with RANKLAB_PROGRESS=1 and sends it SIGINT when a progress line
 * matches, so tests (the fuzz harness) and bench/interrupt.ts can interrupt a chosen phase (index build, query loop, …).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { WorkProgress } from '../../src/core/util/cooperative';
import { CLI } from './cli';

export interface InterruptOptions {
  /** Send SIGINT when this returns true for a progress line (once), after `interruptDelayMs` (default 0). */
  interruptWhen?: (p: WorkProgress) => boolean;
  interruptDelayMs?: number;
  /** Send a second SIGINT as soon as the CLI says it is stopping. */
  secondInterruptOnNotice?: boolean;
}

/** What a watcher saw, filled in as the child runs. */
export interface InterruptWatch {
  /** Progress lines seen, in order. */
  progress: WorkProgress[];
  /** performance.now() when the first SIGINT was sent, and when the CLI said it is stopping. */
  interruptedAt?: number;
  noticedAt?: number;
}

/** Watches a child started with RANKLAB_PROGRESS=1: parses its progress lines and sends the SIGINTs asked for. */
export function interruptOnProgress(child: ChildProcess, opts: InterruptOptions): InterruptWatch {
  const watch: InterruptWatch = { progress: [] };
  let err = '';
  let pending = '';
  let triggered = false;
  const interrupt = () => {
    watch.interruptedAt = performance.now();
    child.kill('SIGINT');
  };
  child.stderr!.on('data', (d: Buffer | string) => {
    const text = d.toString();
    err += text;
    if (watch.noticedAt === undefined && err.includes('interrupted: stopping')) {
      watch.noticedAt = performance.now();
      if (opts.secondInterruptOnNotice) child.kill('SIGINT');
    }
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('ranklab-progress ')) continue;
      const p = JSON.parse(line.slice('ranklab-progress '.length)) as WorkProgress;
      watch.progress.push(p);
      if (!triggered && opts.interruptWhen?.(p)) {
        triggered = true;
        if (opts.interruptDelayMs) setTimeout(interrupt, opts.interruptDelayMs);
        else interrupt();
      }
    }
  });
  return watch;
}

export interface CliRun extends InterruptWatch {
  code: number | null;
  /** The signal that ended the process, when it did not exit by itself. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** performance.now() when it ended. */
  endedAt: number;
}

export interface CliRunOptions extends InterruptOptions {
  cwd: string;
  env?: Record<string, string>;
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
    const watch = interruptOnProgress(child, opts);
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 600_000);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ ...watch, code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: err, endedAt: performance.now() });
    });
  });
}
