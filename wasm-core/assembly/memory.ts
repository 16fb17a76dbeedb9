// Linear-memory allocation for the JavaScript side. The runtime is "minimal" (TLSF allocator,
// no automatic GC): the core allocates only unmanaged blocks, so nothing is ever collected
// behind a pointer that JavaScript holds.

/** Allocates `size` bytes (16-byte aligned); JavaScript writes chunks here before merging. */
export function alloc(size: usize): usize {
  return heap.alloc(size);
}

/** Frees a block from alloc (never one that was handed to storeMerge: the store owns those). */
export function free(ptr: usize): void {
  heap.free(ptr);
}
