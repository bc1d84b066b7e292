/**
 * Live updates over graphql-ws (`graphql-transport-ws`) at /graphql/ws on the same origin: the
 * browser sends the session cookie with the upgrade, so no token is kept in script.
 */
import { type Client, createClient } from 'graphql-ws';
import { useEffect, useRef } from 'react';
import type { TypedDocumentString } from '../generated/graphql';

let client: Client | undefined;

/** The one WebSocket client of the page, opened lazily and retried with backoff. */
function liveClient(): Client {
  if (!client) {
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    client = createClient({
      url: `${scheme}//${window.location.host}/graphql/ws`,
      lazy: true,
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => true,
    });
  }
  return client;
}

/** Closes the live connection (after sign-out). */
export function closeLive(): void {
  void client?.dispose();
  client = undefined;
}

/** Subscribes while mounted and while `enabled`; calls `onData` with each event. */
export function useSubscription<TResult, TVariables extends Record<string, unknown>>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
  onData: (data: TResult) => void,
  enabled = true,
): void {
  const handler = useRef(onData);
  handler.current = onData;
  const key = JSON.stringify(variables);
  useEffect(() => {
    if (!enabled) {
      return;
    }
    return liveClient().subscribe<TResult>(
      { query: document.toString(), variables: JSON.parse(key) as Record<string, unknown> },
      {
        next: (value) => {
          if (value.data) {
            handler.current(value.data as TResult);
          }
        },
        error: () => {},
        complete: () => {},
      },
    );
  }, [document, key, enabled]);
}

/**
 * Calls `onConnected` each time the live connection is (re)established, so a page can re-read
 * what may have changed before its subscriptions started (events are not backfilled).
 */
export function useLiveConnected(onConnected: () => void): void {
  const handler = useRef(onConnected);
  handler.current = onConnected;
  useEffect(() => {
    let timer: number | undefined;
    const off = liveClient().on('connected', () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => handler.current(), 250);
    });
    return () => {
      window.clearTimeout(timer);
      off();
    };
  }, []);
}
