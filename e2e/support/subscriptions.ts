/**
 * Helpers of the subscription e2e tests: accounts and streams through the real GraphQL API, and a
 * graphql-ws client (graphql-transport-ws over `ws`) that records what one subscription receives.
 */
import type { TestServer } from '@airwave/server/testing/test-server';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createStream, registerAccount } from './accounts.js';

/** A signed-up account with one stream. */
export interface Account {
  readonly token: string;
  readonly streamId: string;
  readonly streamGlobalId: string;
  readonly playbackId: string;
  /** Secret primary stream key (RTMP: rtmp://host:port/live/<streamKey>). */
  readonly streamKey: string;
}

/** Registers a user and creates a stream through POST /graphql. */
export async function accountWithStream(server: TestServer): Promise<Account> {
  const { token } = await registerAccount(server, 'sub');
  const stream = await createStream(server, token, 'events');
  return {
    token,
    streamId: stream.streamId,
    streamGlobalId: stream.id,
    playbackId: stream.playbackId,
    streamKey: stream.streamKey,
  };
}

/** One result of a subscription. */
export interface SubscriptionResult {
  readonly data?: Record<string, Record<string, unknown>> | null;
  readonly errors?: readonly { message: string; extensions?: Record<string, unknown> }[];
}

/** A subscription being recorded. */
export interface Recorder {
  readonly results: SubscriptionResult[];
  /** Resolves when the subscription ends: undefined on complete, the error otherwise. */
  readonly done: Promise<unknown>;
  /** The close event code, if the connection closed. */
  closeCode(): number | undefined;
  /** Waits until `predicate` holds for some result; returns it. */
  waitFor(
    predicate: (result: SubscriptionResult) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<SubscriptionResult>;
  close(): Promise<void>;
}

/** WebSocket URL of the subscription endpoint of `server`. */
export function wsUrl(server: TestServer): string {
  return `${server.baseUrl.replace(/^http/, 'ws')}/graphql/ws`;
}

/** Subscribes with a graphql-ws client and records every result. */
export function record(
  url: string,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Recorder {
  let closeCode: number | undefined;
  const client: Client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: token === undefined ? {} : { authToken: token },
    retryAttempts: 0,
    on: {
      closed: (event) => {
        closeCode = (event as { code?: number }).code;
      },
    },
  });
  const results: SubscriptionResult[] = [];
  const watchers = new Set<() => void>();
  let finish: (value: unknown) => void = () => undefined;
  const done = new Promise<unknown>((resolve) => {
    finish = resolve;
  });
  const unsubscribe = client.subscribe(
    { query, variables },
    {
      next: (value) => {
        results.push(value as SubscriptionResult);
        for (const watcher of watchers) {
          watcher();
        }
      },
      error: (error) => finish(error ?? new Error('subscription failed')),
      complete: () => finish(undefined),
    },
  );
  return {
    results,
    done,
    closeCode: () => closeCode,
    waitFor(predicate, what, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = results.find(predicate);
          if (found) {
            watchers.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(results)}`));
        }, timeoutMs);
        watchers.add(check);
        check();
      });
    },
    async close() {
      unsubscribe();
      await client.dispose();
    },
  };
}

/** Waits until the server's bus holds at least `count` subscriptions (subscribed after authorizing). */
export async function subscribed(server: TestServer, count: number): Promise<void> {
  await busCount(server, (n) => n >= count, `${count} subscriptions`);
}

/** Waits until the server's bus holds no subscriptions (earlier clients have gone). */
export async function unsubscribedAll(server: TestServer): Promise<void> {
  await busCount(server, (n) => n === 0, 'no subscriptions');
}

async function busCount(server: TestServer, ok: (count: number) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ok(server.running.events.subscriberCount)) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
