// The part of the WebAssembly API the kernels use. Node has it as a global, but @types/node 20 does not declare it
// (TypeScript's copy lives in the DOM lib, which src/ leaves out: src/tsconfig.json).
declare namespace WebAssembly {
  interface Memory {
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class Module {
    constructor(bytes: BufferSource);
  }
  class Instance {
    constructor(module: Module, importObject?: Record<string, unknown>);
    readonly exports: Record<string, unknown>;
  }
  function validate(bytes: BufferSource): boolean;
}
