// Timing, percentiles and memory helpers for the benchmarks.
import os from 'node:os';

export const now = () => performance.now();

export function percentile(xs, p) {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

/** Runs fn over every query; per-query latencies (ms), wall time and queries/second. */
export async function timeQueries(queries, fn) {
  const lat = new Array(queries.length);
  const t0 = now();
  for (let i = 0; i < queries.length; i++) {
    const t = now();
    await fn(queries[i], i);
    lat[i] = now() - t;
  }
  const wallMs = now() - t0;
  return { p50: percentile(lat, 0.5), p99: percentile(lat, 0.99), wallMs, qps: queries.length / (wallMs / 1000), n: queries.length };
}

function gc() {
  if (global.gc) {
    global.gc();
    global.gc();
  }
}

/** Memory after a full GC: RSS (includes native memory such as hnswlib's) and JS heap + array buffers, in MB. */
export function memory() {
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heap: (m.heapUsed + m.arrayBuffers) / 2 ** 20 };
}

/** Time and retained memory of building something (keep the result alive to see what it retains). */
export async function measureBuild(fn) {
  const before = memory();
  const t0 = now();
  const value = await fn();
  const ms = now() - t0;
  const after = memory();
  return { value, ms, rssMB: after.rss - before.rss, heapMB: after.heap - before.heap };
}

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    totalMemGB: os.totalmem() / 2 ** 30,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    gcExposed: typeof global.gc === 'function',
  };
}

export const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
