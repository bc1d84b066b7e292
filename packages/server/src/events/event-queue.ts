/**
 * A bounded async iterator fed by bus listeners: what a GraphQL subscription iterates. When a
 * consumer falls `limit` items behind, the iterator fails with `QueueOverflowError` instead of
 * growing without bound; `return()` (the client completed or went away) runs the cleanup.
 */

/** The consumer fell too far behind. */
export class QueueOverflowError extends Error {
  override readonly name = 'QueueOverflowError';
}

/** A push-fed, bounded async iterator. */
export class EventQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private head = 0;
  private waiter: ((result: IteratorResult<T>) => void) | undefined;
  private failWaiter: ((error: Error) => void) | undefined;
  private failure: Error | undefined;
  private done = false;

  constructor(
    private readonly limit: number,
    private readonly cleanup: () => void,
  ) {}

  /** Items waiting to be consumed. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Adds one item; fails the iterator when more than `limit` wait. */
  push(item: T): void {
    if (this.done) {
      return;
    }
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      this.failWaiter = undefined;
      waiter({ value: item, done: false });
      return;
    }
    if (this.length >= this.limit) {
      this.fail(new QueueOverflowError(`subscriber too slow: more than ${this.limit} events waiting`));
      return;
    }
    this.items.push(item);
  }

  /** Ends the iterator with an error (delivered after nothing, the queue is discarded). */
  fail(error: Error): void {
    if (this.done) {
      return;
    }
    this.finish();
    this.failure = error;
    const reject = this.failWaiter;
    this.waiter = undefined;
    this.failWaiter = undefined;
    reject?.(error);
  }

  /** Next item, waiting for one when the queue is empty. */
  next(): Promise<IteratorResult<T>> {
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    if (this.length > 0) {
      const value = this.items[this.head] as T;
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.done) {
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }

  /** Stops iterating (client completed or disconnected). */
  return(): Promise<IteratorResult<T>> {
    this.finish();
    const waiter = this.waiter;
    this.waiter = undefined;
    this.failWaiter = undefined;
    waiter?.({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  /** Stops with an error thrown into the iterator. */
  throw(error?: unknown): Promise<IteratorResult<T>> {
    this.fail(error instanceof Error ? error : new Error(String(error)));
    return this.next();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  private finish(): void {
    if (this.done) {
      return;
    }
    this.done = true;
    this.items.length = 0;
    this.head = 0;
    this.cleanup();
  }
}
