/** Memory a packager holds, counted by whole backing buffers (what stays resident while any view of it lives). */

/** Sums the byteLength of each distinct ArrayBuffer behind `views` (a shared block counts once). */
export function bufferBytes(views: Iterable<Uint8Array | undefined>): number {
  const seen = new Set<ArrayBufferLike>();
  let total = 0;
  for (const view of views) {
    if (view && !seen.has(view.buffer)) {
      seen.add(view.buffer);
      total += view.buffer.byteLength;
    }
  }
  return total;
}
