/** A small query hook: runs a typed operation, keeps loading/error/data, and reloads on demand. */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TypedDocumentString } from '../generated/graphql';
import { type ApiError, request } from './client';

/** State of one query. */
export interface QueryState<T> {
  readonly data: T | undefined;
  readonly error: ApiError | undefined;
  readonly loading: boolean;
  /** Runs the query again (keeps the current data while it loads). */
  reload(): void;
}

/** Runs `document` with `variables` whenever their JSON changes. */
export function useQuery<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): QueryState<TResult> {
  const [state, setState] = useState<{ data?: TResult; error?: ApiError; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  const key = JSON.stringify(variables);
  const latest = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: variables are compared by their JSON; generation forces a reload.
  useEffect(() => {
    const id = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    const run = request as (doc: unknown, vars: unknown) => Promise<TResult>;
    run(document, JSON.parse(key)).then(
      (data) => id === latest.current && setState({ data, loading: false }),
      (error: ApiError) => id === latest.current && setState((previous) => ({ ...previous, error, loading: false })),
    );
  }, [document, key, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
