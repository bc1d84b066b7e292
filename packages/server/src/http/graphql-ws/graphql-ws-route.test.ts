import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { createClient } from 'graphql-ws';
import mercurius from 'mercurius';
import WebSocket from 'ws';
import type { Principal } from '../../auth/principal.js';
import { NotFoundError, RateLimitedError, UnauthorizedError } from '../../domain/errors.js';
import { fromGlobalId, toGlobalId } from '../../domain/ids.js';
import { EventBus } from '../../events/event-bus.js';
import { EventFeed } from '../../events/event-feed.js';
import { baseModule } from '../../graphql/modules/base.js';
import { subscriptionsModule } from '../../graphql/modules/subscriptions.js';
import { buildTypeDefs } from '../../graphql/schema.js';
import {
  CLOSE_SLOW_CONSUMER,
  CLOSE_TOO_MANY_CONNECTIONS,
  CLOSE_TRY_AGAIN_LATER,
  CLOSE_UNAUTHORIZED,
} from './close-codes.js';
import { GRAPHQL_WS_PATH, type GraphQLWsLimits, graphqlWsRoute } from './graphql-ws-route.js';

const TENANT_A = '11111111-1111-4111-8111-111111111111';
const TENANT_B = '22222222-2222-4222-8222-222222222222';
const STREAM_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const STREAM_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

const principals: Record<string, Principal | undefined> = {
  'token-a': { userId: 'u-a', tenantId: TENANT_A, kind: 'session', sessionId: 's-a', scopes: 'all' },
  'token-b': { userId: 'u-b', tenantId: TENANT_B, kind: 'session', sessionId: 's-b', scopes: 'all' },
  'token-revocable': { userId: 'u-r', tenantId: TENANT_A, kind: 'developer-token', tokenId: 't-r', scopes: 'all' },
  'token-a-limited': {
    userId: 'u-a',
    tenantId: TENANT_A,
    kind: 'developer-token',
    tokenId: 't-a',
    scopes: new Set(['analytics:read'] as const),
  },
};
const owners: Record<string, string> = { [STREAM_A]: TENANT_A, [STREAM_B]: TENANT_B };

const STATUS_MODULE = { typeDefs: 'enum StreamStatus { OFFLINE LIVE RECORDING ENDED RECONNECTING }', resolvers: {} };
const LIVE_EVENTS = `subscription ($id: ID!) { liveStreamEvents(streamId: $id) { eventId streamId state status timestamp reason details } }`;

interface Harness {
  app: FastifyInstance;
  bus: EventBus;
  url: string;
}

async function startHarness(limits: GraphQLWsLimits, rateLimit?: (key: string) => void): Promise<Harness> {
  const bus = new EventBus();
  const feed = new EventFeed({
    bus,
    resolveStream: async (tenantId, id) => {
      const raw = fromGlobalId('Stream', id, 'streamId');
      if (owners[raw] !== tenantId) {
        throw new NotFoundError('Stream', id);
      }
      return raw;
    },
  });
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(mercurius, {
    schema: buildTypeDefs([baseModule, STATUS_MODULE, subscriptionsModule]),
    resolvers: {},
    path: '/graphql',
  });
  await graphqlWsRoute({
    feed,
    authenticateToken: async (token) => {
      const principal = principals[token];
      if (!principal) {
        throw new UnauthorizedError('invalid token');
      }
      return principal;
    },
    ...(rateLimit ? { rateLimit } : {}),
    ...limits,
  })(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, bus, url: `ws://127.0.0.1:${port}${GRAPHQL_WS_PATH}` };
}

/** A raw protocol client: connects, sends connection_init, resolves with the close code and reason. */
async function closeCodeOf(url: string, payload: unknown, options: WebSocket.ClientOptions = {}) {
  const socket = new WebSocket(url, 'graphql-transport-ws', options);
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'connection_init', ...(payload === undefined ? {} : { payload }) }));
  const [code, reason] = (await once(socket, 'close')) as [number, Buffer];
  return { code, reason: reason.toString() };
}

/** Opens an acknowledged raw connection. */
async function rawConnection(url: string, token: string, options: WebSocket.ClientOptions = {}) {
  const socket = new WebSocket(url, 'graphql-transport-ws', options);
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authToken: token } }));
  const [data] = (await once(socket, 'message')) as [Buffer];
  assert.equal(JSON.parse(data.toString()).type, 'connection_ack');
  return socket;
}

/** Collects results of one subscription through the graphql-ws client. */
function subscribe(url: string, token: string, query: string, variables: Record<string, unknown>) {
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: { authToken: token },
    retryAttempts: 0,
    lazy: true,
  });
  const results: { data?: unknown; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }[] =
    [];
  let resolveDone: (error?: unknown) => void = () => undefined;
  const done = new Promise<unknown>((resolve) => {
    resolveDone = resolve;
  });
  const waiters: { count: number; resolve: () => void }[] = [];
  const acked = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  const unsubscribe = client.subscribe(
    { query, variables },
    {
      next: (value) => {
        results.push(value as (typeof results)[number]);
        for (const waiter of waiters.filter((w) => results.length >= w.count)) {
          waiter.resolve();
        }
      },
      error: (error) => resolveDone(error),
      complete: () => resolveDone(),
    },
  );
  return {
    results,
    done,
    acked,
    async waitFor(count: number) {
      if (results.length >= count) {
        return;
      }
      await new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      unsubscribe();
      await client.dispose();
    },
  };
}

/** Waits until the bus has `count` subscribers (the server subscribed after authorizing). */
async function subscribers(bus: EventBus, count: number) {
  while (bus.subscriberCount < count) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('/graphql/ws', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxSubscriptionsPerConnection: 3, maxConnectionsPerToken: 5 });
  });
  after(async () => {
    await h.app.close();
  });

  it('delivers live then offline to a subscriber of its stream, by raw UUID and by global ID', async () => {
    const byUuid = subscribe(h.url, 'token-a', LIVE_EVENTS, { id: STREAM_A });
    const byGlobal = subscribe(h.url, 'token-a', LIVE_EVENTS, { id: toGlobalId('Stream', STREAM_A) });
    await subscribers(h.bus, 2);
    const live = h.bus.publish('stream.live', {
      tenantId: TENANT_A,
      streamId: STREAM_A,
      details: { protocol: 'rtmp' },
    });
    h.bus.publish('stream.offline', { tenantId: TENANT_A, streamId: STREAM_A, reason: 'publisher left' });
    for (const sub of [byUuid, byGlobal]) {
      await sub.waitFor(2);
      const [first, second] = sub.results.map(
        (r) => (r.data as { liveStreamEvents: Record<string, unknown> }).liveStreamEvents,
      );
      assert.deepEqual(first, {
        eventId: live.id,
        streamId: STREAM_A,
        state: 'live',
        status: 'LIVE',
        timestamp: live.occurredAt,
        reason: null,
        details: { protocol: 'rtmp' },
      });
      assert.equal(second?.state, 'offline');
      assert.equal(second?.status, 'OFFLINE');
      assert.equal(second?.reason, 'publisher left');
      await sub.close();
    }
  });

  it("refuses another tenant's stream and an unknown one with NOT_FOUND and sends no events", async () => {
    const foreign = subscribe(h.url, 'token-a', LIVE_EVENTS, { id: STREAM_B });
    const unknown = subscribe(h.url, 'token-a', LIVE_EVENTS, { id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc' });
    for (const sub of [foreign, unknown]) {
      await sub.done;
      assert.equal(sub.results.length, 1);
      assert.equal(sub.results[0]?.data, null);
      assert.equal(sub.results[0]?.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    }
    h.bus.publish('stream.live', { tenantId: TENANT_B, streamId: STREAM_B });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(foreign.results.length, 1);
    await foreign.close();
    await unknown.close();
  });

  it('does not deliver an event of another tenant naming the same stream id', async () => {
    const sub = subscribe(h.url, 'token-a', LIVE_EVENTS, { id: STREAM_A });
    await subscribers(h.bus, 1);
    h.bus.publish('stream.live', { tenantId: TENANT_B, streamId: STREAM_A });
    h.bus.publish('stream.offline', { tenantId: TENANT_A, streamId: STREAM_A });
    await sub.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(sub.results.length, 1);
    const only = sub.results[0]?.data as { liveStreamEvents: { state: string } } | undefined;
    assert.equal(only?.liveStreamEvents.state, 'offline');
    await sub.close();
  });

  it('answers FORBIDDEN to a developer token without streams:read', async () => {
    const sub = subscribe(h.url, 'token-a-limited', LIVE_EVENTS, { id: STREAM_A });
    await sub.done;
    assert.equal(sub.results[0]?.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    await sub.close();
  });

  it('closes with 4401 when the token is missing, empty or invalid', async () => {
    for (const payload of [undefined, {}, { authToken: '' }, { authToken: 'nope' }, { authToken: 42 }]) {
      const { code, reason } = await closeCodeOf(h.url, payload);
      assert.equal(code, CLOSE_UNAUTHORIZED, `payload ${JSON.stringify(payload)}`);
      assert.match(reason, /Unauthorized/);
    }
  });

  it('closes with 4401 when a subscribe comes before connection_init is acknowledged', async () => {
    const socket = new WebSocket(h.url, 'graphql-transport-ws');
    await once(socket, 'open');
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: LIVE_EVENTS } }));
    const [code] = (await once(socket, 'close')) as [number];
    assert.equal(code, 4401);
  });

  it('refuses queries and mutations over the socket, and invalid documents, with VALIDATION_ERROR', async () => {
    for (const query of ['{ ping }', 'mutation { noop }', 'subscription { nope }', 'subscription {']) {
      const sub = subscribe(h.url, 'token-a', query, {});
      const error = (await sub.done) as { extensions?: { code?: string } }[];
      assert.ok(Array.isArray(error), `${query}: expected an error message`);
      assert.equal(error[0]?.extensions?.code, 'VALIDATION_ERROR', query);
      await sub.close();
    }
  });

  it('limits subscriptions per connection', async () => {
    const socket = await rawConnection(h.url, 'token-a');
    const messages: { id?: string; type: string; payload?: unknown }[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString())));
    for (let i = 1; i <= 4; i++) {
      socket.send(
        JSON.stringify({
          id: String(i),
          type: 'subscribe',
          payload: { query: LIVE_EVENTS, variables: { id: STREAM_A } },
        }),
      );
    }
    await subscribers(h.bus, 3);
    while (!messages.some((m) => m.id === '4')) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const refused = messages.find((m) => m.id === '4');
    assert.equal(refused?.type, 'error');
    const errors = refused?.payload as { extensions: { code: string } }[] | undefined;
    assert.equal(errors?.[0]?.extensions.code, 'RATE_LIMITED');
    socket.close();
    await once(socket, 'close');
  });

  it('limits connections per token with close code 1008', async () => {
    const open = [];
    for (let i = 0; i < 5; i++) {
      open.push(await rawConnection(h.url, 'token-b'));
    }
    const { code, reason } = await closeCodeOf(h.url, { authToken: 'token-b' });
    assert.equal(code, CLOSE_TOO_MANY_CONNECTIONS);
    assert.match(reason, /too many connections/);
    for (const socket of open) {
      socket.close();
      await once(socket, 'close');
    }
    const again = await rawConnection(h.url, 'token-b');
    again.close();
    await once(again, 'close');
  });
});

describe('/graphql/ws limits connection attempts per address', () => {
  let h: Harness;
  const attempts: string[] = [];
  before(async () => {
    h = await startHarness({}, (key) => {
      attempts.push(key);
      if (attempts.length > 2) {
        throw new RateLimitedError(30);
      }
    });
  });
  after(async () => {
    await h.app.close();
  });

  it('counts every connection_init by client address and closes with 1013 past the limit', async () => {
    assert.equal((await closeCodeOf(h.url, { authToken: 'nope' })).code, CLOSE_UNAUTHORIZED);
    const ok = await rawConnection(h.url, 'token-a');
    const { code, reason } = await closeCodeOf(h.url, { authToken: 'token-a' });
    assert.equal(code, CLOSE_TRY_AGAIN_LATER);
    assert.match(reason, /retry after 30 s/);
    assert.deepEqual(attempts, ['ip:127.0.0.1', 'ip:127.0.0.1', 'ip:127.0.0.1']);
    ok.close();
    await once(ok, 'close');
  });
});

describe('/graphql/ws re-checks tokens', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ reauthenticateMs: 50 });
  });
  after(async () => {
    await h.app.close();
  });

  it('closes an open connection with 4401 once its token is revoked', async () => {
    const socket = await rawConnection(h.url, 'token-revocable');
    const closed = once(socket, 'close');
    await new Promise((resolve) => setTimeout(resolve, 120));
    assert.equal(socket.readyState, WebSocket.OPEN, 'a valid token keeps its connection');
    principals['token-revocable'] = undefined;
    const [code, reason] = (await closed) as [number, Buffer];
    assert.equal(code, CLOSE_UNAUTHORIZED);
    assert.match(reason.toString(), /expired or revoked/);
  });
});

describe('/graphql/ws limits on slow and dead clients', () => {
  let h: Harness;
  let pinging: Harness;
  before(async () => {
    h = await startHarness({ maxBufferedBytes: 256 * 1024 });
    pinging = await startHarness({ keepAliveMs: 150 });
  });
  after(async () => {
    await h.app.close();
    await pinging.app.close();
  });

  it('closes a client that stops reading with 4008 once its send buffer passes the limit', async () => {
    const socket = await rawConnection(h.url, 'token-a');
    socket.send(
      JSON.stringify({ id: '1', type: 'subscribe', payload: { query: LIVE_EVENTS, variables: { id: STREAM_A } } }),
    );
    await subscribers(h.bus, 1);
    const closed = once(socket, 'close');
    const tcp = (socket as unknown as { _socket: import('node:net').Socket })._socket;
    tcp.pause();
    const details = { padding: 'x'.repeat(4000) };
    const serverSide = [...h.app.websocketServer.clients];
    assert.equal(serverSide.length, 1);
    let published = 0;
    while (serverSide[0]?.readyState === WebSocket.OPEN && published < 100_000) {
      h.bus.publish('stream.live', { tenantId: TENANT_A, streamId: STREAM_A, details });
      published++;
      if (published % 100 === 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    assert.equal(serverSide[0]?.readyState, WebSocket.CLOSING, 'the server is closing the slow client');
    assert.ok(serverSide[0].bufferedAmount < 512 * 1024, `buffered ${serverSide[0].bufferedAmount} bytes`);
    tcp.resume();
    const [code, reason] = (await closed) as [number, Buffer];
    assert.equal(code, CLOSE_SLOW_CONSUMER);
    assert.match(reason.toString(), /slow consumer/);
  });

  it('drops a client that does not answer pings', async () => {
    const socket = await rawConnection(pinging.url, 'token-a', { autoPong: false });
    const [code] = (await once(socket, 'close')) as [number];
    assert.equal(code, 1006, 'the server terminated the connection without a close frame');
  });

  it('keeps a client that answers pings', async () => {
    const socket = await rawConnection(pinging.url, 'token-a');
    let pings = 0;
    socket.on('ping', () => pings++);
    while (pings < 4) {
      await once(socket, 'ping');
    }
    assert.equal(socket.readyState, WebSocket.OPEN);
    socket.close();
    await once(socket, 'close');
  });
});
