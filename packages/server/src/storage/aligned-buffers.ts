/**
 * Page-aligned staging memory for O_DIRECT writes (ADR 0081): JavaScript cannot ask for aligned
 * memory, but a WebAssembly.Memory's buffer is mapped by pages. At most POOL_SIZE are lent at a
 * time, process-wide (a borrower past that waits for one back), and kept for the next writes, so
 * recordings cutting at the same instant reuse the same few instead of mapping and faulting in
 * new ones; a lent one is never grown (growing detaches its views).
 */

/** The part of a WebAssembly.Memory used here (the project's TypeScript libs do not declare WebAssembly). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

declare const WebAssembly: { readonly Memory: new (descriptor: { initial: number }) => WasmMemory };

/** Bytes of one WebAssembly page. */
const WASM_PAGE = 65536;
/** Memories lent at once (and kept free for the next writes). */
const POOL_SIZE = 8;
/** A memory grown past this is dropped once returned instead of kept (a rare huge segment). */
const KEEP_BYTES = 16 * 1024 * 1024;

const free: WasmMemory[] = [];
/** Borrowers waiting for a memory back. */
const waiting: (() => void)[] = [];
let lent = 0;

/** A page-aligned buffer lent for one write: `bytes` is a view of its first bytes; give it back with `release`. */
export interface AlignedBuffer {
  readonly bytes: Buffer;
  release(): void;
}

/** Lends a page-aligned buffer of at least `size` bytes once one is free (its contents are whatever the last borrower left). */
export async function borrowAligned(size: number): Promise<AlignedBuffer> {
  while (lent >= POOL_SIZE) {
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  lent++;
  const pages = Math.max(1, Math.ceil(size / WASM_PAGE));
  let memory = free.pop();
  if (memory === undefined) {
    memory = new WebAssembly.Memory({ initial: pages });
  } else if (memory.buffer.byteLength < pages * WASM_PAGE) {
    memory.grow(pages - memory.buffer.byteLength / WASM_PAGE);
  }
  const borrowed = memory;
  let released = false;
  return {
    bytes: Buffer.from(borrowed.buffer, 0, size),
    release: () => {
      if (released) {
        return;
      }
      released = true;
      lent--;
      if (borrowed.buffer.byteLength <= KEEP_BYTES) {
        free.push(borrowed);
      }
      waiting.shift()?.();
    },
  };
}
