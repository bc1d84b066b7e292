/**
 * Subscription execution that shares work between subscribers: the GraphQL result of one event
 * for one document (and variables) is computed once and reused by every subscription that
 * received that same event object, so a stream with 1,000 subscribers executes each event once
 * per distinct query rather than 1,000 times. Safe because subscription payloads depend only on
 * the event and the document; who may receive the event was decided at subscribe time.
 */
import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  print,
} from 'graphql';

type Results = Map<string, ExecutionResult | Promise<ExecutionResult>>;

const documentKeys = new WeakMap<DocumentNode, string>();

function documentKey(document: DocumentNode): string {
  let key = documentKeys.get(document);
  if (key === undefined) {
    key = print(document);
    documentKeys.set(document, key);
  }
  return key;
}

/** Maps an async iterator without the queued-return problem of async generators. */
function mapIterator<T, U>(source: AsyncIterator<T>, map: (value: T) => Promise<U> | U): AsyncIterableIterator<U> {
  return {
    async next() {
      const result = await source.next();
      return result.done ? { value: undefined, done: true } : { value: await map(result.value), done: false };
    },
    async return() {
      await source.return?.();
      return { value: undefined, done: true };
    },
    async throw(error?: unknown) {
      await source.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** A `subscribe` for graphql-ws that executes each (event, document, variables) once. */
export function sharedSubscribe(): (
  args: ExecutionArgs,
) => Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const cache = new WeakMap<object, Results>();
  return async (args) => {
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) {
      return source;
    }
    const key = `${documentKey(args.document)}\u0000${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}`;
    return mapIterator(source[Symbol.asyncIterator](), (event: unknown) => {
      if (typeof event !== 'object' || event === null) {
        return execute({ ...args, rootValue: event });
      }
      let results = cache.get(event);
      if (!results) {
        results = new Map();
        cache.set(event, results);
      }
      let result = results.get(key);
      if (!result) {
        result = execute({ ...args, rootValue: event });
        results.set(key, result);
      }
      return result;
    });
  };
}
