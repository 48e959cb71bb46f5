import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The exact-scan WebAssembly SIMD kernels (`exact-scan.wat`). The build assembles them into
 * `dist/exact-scan.wasm` beside the bundle, which loads it synchronously from there. Unbundled (tests and
 * benches under tsx) there is no binary beside this file: `loadScanModule` then assembles the source with
 * wabt (a devDependency, never needed by the bundle). Without either, or with `RANKLAB_EXACT_KERNEL=js`,
 * exact search uses the plain-JS kernels (simd/js-kernels.ts) and gives the same results.
 */

/** (query, matrix base, row stride in bytes, row list, row count, output, padded dimension): byte offsets. */
export type ScanKernel = (q: number, base: number, stride: number, rows: number, n: number, out: number, dim: number) => void;

export interface ScanKernels {
  memory: WebAssembly.Memory;
  dot_f32: ScanKernel;
  l2_f32: ScanKernel;
  dot_f16: ScanKernel;
  dot_i8: ScanKernel;
}

const SCAN_WASM = 'exact-scan.wasm';
const SCAN_WAT = 'exact-scan.wat';

// compiled: undefined = not looked for yet, null = looked for and not available. Kept on globalThis because
// tsx can load this file twice (once as ESM, once as CJS) and both copies must see one result.
const state: { compiled?: WebAssembly.Module | null; fromSource?: Promise<WebAssembly.Module | null> } = ((
  globalThis as Record<symbol, unknown>
)[Symbol.for('ranklab.exactScanKernels')] ??= {}) as object;

// __filename, not __dirname: tsx sets only __filename right when an ES module imports this file.
function here(): string {
  return dirname(__filename);
}

function forcedJs(): boolean {
  return process.env.RANKLAB_EXACT_KERNEL === 'js';
}

function compile(bytes: Uint8Array<ArrayBuffer>): WebAssembly.Module | null {
  // validate() is false where WebAssembly SIMD is not supported: the JS kernels take over.
  return WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
}

/** The compiled kernels if available without waiting: built beside the bundle, or assembled earlier. */
export function scanModule(): WebAssembly.Module | undefined {
  if (forcedJs()) return undefined;
  if (state.compiled === undefined) {
    const file = join(here(), SCAN_WASM);
    try {
      state.compiled = existsSync(file) ? compile(readFileSync(file)) : null;
    } catch {
      state.compiled = null;
    }
  }
  return state.compiled ?? undefined;
}

/** As `scanModule`, and when running from source, assembles `exact-scan.wat` first (once per process). */
export async function loadScanModule(): Promise<WebAssembly.Module | undefined> {
  const ready = scanModule();
  if (ready || forcedJs()) return ready;
  const source = join(here(), SCAN_WAT);
  if (!existsSync(source)) return undefined;
  state.fromSource ??= (async () => {
    try {
      // A variable specifier keeps bundlers from pulling the assembler into dist/ (it is never needed there);
      // require, not import(): under tsx an ES module importer can leave this file unable to resolve packages.
      const assembler = 'wabt';
      const wabt = require(assembler) as () => Promise<Wabt>;
      const mod = (await wabt()).parseWat(SCAN_WAT, readFileSync(source, 'utf8'), { simd: true });
      try {
        mod.validate();
        return compile(mod.toBinary({}).buffer);
      } finally {
        mod.destroy();
      }
    } catch {
      return null;
    }
  })();
  state.compiled = await state.fromSource;
  return state.compiled ?? undefined;
}

interface Wabt {
  parseWat(
    name: string,
    text: string,
    features: { simd: boolean },
  ): { validate(): void; toBinary(options: object): { buffer: Uint8Array<ArrayBuffer> }; destroy(): void };
}

/** A fresh instance of the kernels with its own memory (each exact index owns one). */
export function instantiateScanKernels(module: WebAssembly.Module): ScanKernels {
  return new WebAssembly.Instance(module, {}).exports as unknown as ScanKernels;
}
