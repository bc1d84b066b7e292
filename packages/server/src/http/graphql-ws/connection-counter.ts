/**
 * Counts open connections per key (a developer token, a session) against a limit.
 */

/** Open connections per key. */
export class ConnectionCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Takes a slot for `key`; returns the release function, or undefined when the key is at its limit. */
  acquire(key: string): (() => void) | undefined {
    const current = this.counts.get(key) ?? 0;
    if (current >= this.limit) {
      return undefined;
    }
    this.counts.set(key, current + 1);
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      const now = (this.counts.get(key) ?? 1) - 1;
      if (now <= 0) {
        this.counts.delete(key);
      } else {
        this.counts.set(key, now);
      }
    };
  }

  /** Open connections of `key`. */
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}
