// Assembles the WebAssembly kernels (text format, checked in as source) into binaries with wabt (the npm
// build of the WebAssembly Binary Toolkit; a devDependency). Used by scripts/build.mjs for dist/, and by the
// core's kernel loader when it runs from source (tests and benches under tsx).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import wabt from 'wabt';

export const KERNEL_SOURCES = ['src/core/retrieval/simd/exact-scan.wat'];

/** The binary of one .wat file (SIMD enabled); throws with wabt's message on a syntax or validation error. */
export async function assembleWat(path) {
  const tools = await wabt();
  const mod = tools.parseWat(basename(path), readFileSync(path, 'utf8'), { simd: true });
  try {
    mod.validate();
    return Buffer.from(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

/** Writes `<outDir>/<name>.wasm` for every kernel source. */
export async function buildWasm(outDir) {
  for (const src of KERNEL_SOURCES) {
    writeFileSync(`${outDir}/${basename(src, '.wat')}.wasm`, await assembleWat(src));
  }
}
