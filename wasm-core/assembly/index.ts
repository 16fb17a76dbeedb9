// The data core, compiled to WebAssembly. See wasm-core/README.md for the memory layout.

/** Proves the build chain end to end: AssemblyScript to .wasm to the worker. */
export function coreVersion(): i32 {
  return 1;
}
