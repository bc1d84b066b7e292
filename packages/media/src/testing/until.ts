/** Polling for tests: waits for a condition without hanging the run when it never holds. */

/** Polls `condition` every 5 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
