/**
 * A bounded set of recently seen event ids, oldest forgotten first; used to drop duplicates.
 */

/** Remembers up to `capacity` ids. */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** Adds `id`; returns false when it was already there (a duplicate). */
  add(id: string): boolean {
    if (this.ids.has(id)) {
      return false;
    }
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next();
      if (!oldest.done) {
        this.ids.delete(oldest.value);
      }
    }
    return true;
  }
}
