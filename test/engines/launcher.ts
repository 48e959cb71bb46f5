/**
 * Starts a real engine for the tests of this folder (no mocks of the engine): Solr 9.10.1 or OpenSearch 2.19.6
 * in one JVM on 127.0.0.1, from Maven Central jars (start.sh beside this file builds the launcher once, then
 * starts it detached and waits until the engine answers). Without Java or Maven the tests are skipped with a
 * message; with RANKLAB_REQUIRE_ENGINES=1 (set by .ci/run) that is a failure instead.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type TestEngineKind = 'opensearch' | 'solr';

export interface RunningEngine {
  kind: TestEngineKind;
  /** Base URL as an engine config's `url` takes it (Solr: with /solr). */
  url: string;
  port: number;
  dataDir: string;
  stop(): void;
}

const HERE = __dirname;

/** Why the engine tests cannot run here (undefined: they can). */
export function engineSkip(kind: TestEngineKind): string | undefined {
  const missing = ['java', 'mvn', 'curl'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length === 0) return undefined;
  const reason = `${kind} tests need ${missing.join(', ')} (a JDK 17+, Maven and curl; .ci/run installs them)`;
  if (process.env.RANKLAB_REQUIRE_ENGINES === '1') throw new Error(`engine tests required (RANKLAB_REQUIRE_ENGINES=1) but ${reason}`);
  process.stderr.write(`SKIPPED: ${reason}\n`);
  return reason;
}

/** Starts the engine (blocks until it answers; the first run also resolves and compiles the launcher). */
export function startEngine(kind: TestEngineKind): RunningEngine {
  const dataDir = mkdtempSync(join(tmpdir(), `ranklab-${kind}-`));
  const port = Number(
    execFileSync('bash', [join(HERE, kind, 'start.sh'), '0', dataDir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 600_000,
    }).trim(),
  );
  // Never leave an engine behind, even when the test process dies (and .ci/run's trap stops what is listed here).
  const pid = Number(readFileSync(join(dataDir, 'engine.pid'), 'utf8'));
  if (process.env.RANKLAB_ENGINE_PIDS) appendFileSync(process.env.RANKLAB_ENGINE_PIDS, `${pid}\n`);
  const kill = () => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already stopped
    }
  };
  process.on('exit', kill);
  let stopped = false;
  return {
    kind,
    port,
    dataDir,
    url: kind === 'solr' ? `http://127.0.0.1:${port}/solr` : `http://127.0.0.1:${port}`,
    stop() {
      if (stopped) return;
      stopped = true;
      execFileSync('bash', [join(HERE, 'stop.sh'), dataDir], { stdio: 'inherit' });
      process.off('exit', kill);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
