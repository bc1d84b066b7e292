/**
 * GraphQL transport guarantees (spec §4 and §7) on every backend: POST and GET, mutations
 * refused over GET, introspection, several fields at once, error shape, masked INTERNAL errors
 * with a logged request id, depth, cost and body limits, and the per-caller rate limit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { buildApp } from '../../http/app.js';
import { testBackends } from '../../testing/databases.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';
import type { GraphQLModule } from '../module.js';
import { baseModule } from '../modules/base.js';

interface Body {
  data: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; locations?: unknown; extensions?: Record<string, unknown> }[];
}

async function post(server: TestServer, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
}

async function get(server: TestServer, query: string) {
  const response = await fetch(`${server.baseUrl}/graphql?query=${encodeURIComponent(query)}`);
  return { status: response.status, body: (await response.json()) as Body };
}

async function session(server: TestServer, email: string): Promise<string> {
  const response = await server.graphql<{ register: { token: string } }>(
    'mutation($input: RegisterInput!) { register(input: $input) { ... on AuthPayload { token } } }',
    { input: { email, password: 'transport tests' } },
  );
  const token = response.data?.register.token;
  assert.ok(token);
  return token;
}

for (const backend of testBackends()) {
  describe(`GraphQL transport on ${backend.name}`, () => {
    let server: TestServer;
    let token: string;
    before(async () => {
      server = await startTestServer(backend);
      token = await session(server, 'transport@example.com');
    });
    after(async () => {
      await server.close();
    });

    test('POST and GET run queries; several fields come back in one response', async () => {
      const both = await post(
        server,
        { query: '{ ping me { email } developerTokensConnection { totalCount } }' },
        { authorization: `Bearer ${token}` },
      );
      assert.equal(both.status, 200);
      assert.deepEqual(both.body, {
        data: { ping: true, me: { email: 'transport@example.com' }, developerTokensConnection: { totalCount: 0 } },
      });
      const viaGet = await get(server, '{ ping }');
      assert.deepEqual(viaGet, { status: 200, body: { data: { ping: true } } });
      const withVariables = await fetch(
        `${server.baseUrl}/graphql?query=${encodeURIComponent('query($p: ConnectionInput) { developerTokensConnection(page: $p) { totalCount } }')}&variables=${encodeURIComponent('{"p":{"first":1}}')}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      assert.deepEqual(await withVariables.json(), { data: { developerTokensConnection: { totalCount: 0 } } });
    });

    test('a mutation over GET is refused with a clear VALIDATION_ERROR', async () => {
      const { status, body } = await get(server, 'mutation { noop }');
      assert.equal(status, 405);
      assert.equal(body.data, null);
      assert.equal(body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.match(body.errors?.[0]?.message ?? '', /mutations must be sent with POST/);
    });

    test('introspection lists the schema', async () => {
      const { body } = await post(server, { query: '{ __schema { types { name description } } }' });
      const schema = body.data?.__schema as { types: { name: string; description: string | null }[] } | undefined;
      const types = schema?.types ?? [];
      const names = types.map((type) => type.name);
      for (const name of [
        'AuthPayload',
        'User',
        'DeveloperToken',
        'DeveloperTokenConnection',
        'LoginResult',
        'Error',
      ]) {
        assert.ok(names.includes(name), name);
      }
      assert.ok(types.find((type) => type.name === 'DeveloperToken')?.description);
    });

    test('errors carry message, path and extensions.code; data may be null', async () => {
      const anonymous = await post(server, { query: '{ ping me { id } }' });
      assert.equal(anonymous.status, 200);
      assert.equal(anonymous.body.data, null, 'me is non-null, so its error nulls data');
      assert.deepEqual(anonymous.body.errors?.[0]?.path, ['me']);
      assert.equal(anonymous.body.errors?.[0]?.extensions?.code, 'UNAUTHORIZED');
      assert.ok(anonymous.body.errors?.[0]?.message);
      const unknown = await post(server, { query: '{ pong }' });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.match(unknown.body.errors?.[0]?.message ?? '', /Cannot query field "pong"/);
      assert.ok(unknown.body.errors?.[0]?.locations);
      const syntax = await post(server, { query: '{ ping' });
      assert.equal(syntax.body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.match(syntax.body.errors?.[0]?.message ?? '', /Syntax Error/);
      const badJson = await fetch(`${server.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query": ',
      });
      assert.equal(badJson.status, 400);
      assert.equal(((await badJson.json()) as Body).errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
    });

    test('a query that is not GraphQL text (a number, JSON), a body without a query or not an object: a clear VALIDATION_ERROR, never INTERNAL', async () => {
      const tree = JSON.stringify({ kind: 'Document', definitions: [] });
      for (const query of [5, '{}', '[1, 2]', tree]) {
        const shaped = await post(server, { query });
        assert.equal(shaped.status, 400, String(query));
        assert.equal(shaped.body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR', String(query));
        assert.match(shaped.body.errors?.[0]?.message ?? '', /^Syntax Error/, String(query));
        const overGet = await get(server, String(query));
        assert.equal(overGet.body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR', `GET ${query}`);
      }
      const missing = await post(server, { variables: {} });
      assert.equal(missing.body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.match(missing.body.errors?.[0]?.message ?? '', /no query/);
      for (const body of [['{ ping }'], '{ ping }']) {
        const notObject = await post(server, body);
        assert.equal(notObject.status, 400);
        assert.equal(notObject.body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
        assert.match(notObject.body.errors?.[0]?.message ?? '', /JSON object/);
      }
    });

    test('the standard introspection query is answered, deeper introspection refused, ordinary queries unchanged', async () => {
      const standard = await post(server, { query: getIntrospectionQuery({ descriptions: true, oneOf: true }) });
      assert.equal(standard.status, 200, JSON.stringify(standard.body.errors));
      const schema = buildClientSchema(standard.body.data as unknown as IntrospectionQuery);
      assert.ok(schema.getQueryType()?.getFields().ping);
      const nest = (levels: number): string => (levels === 0 ? 'name' : `ofType { ${nest(levels - 1)} }`);
      const deep = await post(server, { query: `{ __schema { types { fields { type { ${nest(17)} } } } } }` });
      assert.equal(deep.status, 400);
      assert.equal(deep.body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.match(
        deep.body.errors?.[0]?.message ?? '',
        /introspection query is nested 22 levels deep, more than the limit of 20/,
      );
      const ordinary = await post(
        server,
        { query: '{ me { email } streamsConnection { nodes { metrics { status } } } }' },
        { authorization: `Bearer ${token}` },
      );
      assert.equal(ordinary.status, 200, JSON.stringify(ordinary.body.errors));
    });

    test('queries costing more than 1000 are refused, also when the page size comes from a variable', async () => {
      const auth = { authorization: `Bearer ${token}` };
      const literal = await post(
        server,
        { query: '{ developerTokensConnection(page: {first: 500}) { edges { node { id } } } }' },
        auth,
      );
      assert.equal(literal.status, 400);
      assert.equal(literal.body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.equal(literal.body.errors?.[0]?.extensions?.cost, 1002);
      const query = 'query($n: Int) { developerTokensConnection(page: {first: $n}) { edges { node { id } } } }';
      const small = await post(server, { query, variables: { n: 5 } }, auth);
      assert.equal(small.status, 200, JSON.stringify(small.body));
      const large = await post(server, { query, variables: { n: 500 } }, auth);
      assert.equal(large.body.data, null);
      assert.equal(
        large.body.errors?.[0]?.extensions?.code,
        'VALIDATION_ERROR',
        'the cached document is checked again',
      );
      assert.match(large.body.errors?.[0]?.message ?? '', /costs 1002, more than the limit of 1000/);
    });

    test('bodies over 1 MiB are refused with VALIDATION_ERROR', async () => {
      const big = await post(server, { query: '{ ping }', variables: { pad: 'x'.repeat(1024 * 1024) } });
      assert.equal(big.status, 413);
      assert.equal(big.body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.match(big.body.errors?.[0]?.message ?? '', /too large/i);
      const justUnder = await post(server, { query: '{ ping }', variables: { pad: 'x'.repeat(1000 * 1000) } });
      assert.equal(justUnder.status, 200);
    });
  });

  describe(`per-caller request rate limit on ${backend.name}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(backend, { AIRWAVE_API_RATE_LIMIT: '5' });
    });
    after(async () => {
      await server.close();
    });

    test('the sixth request in a minute is RATE_LIMITED with retryAfter; other callers go on', async () => {
      const first = await session(server, 'limited@example.com');
      const auth = { authorization: `Bearer ${first}` };
      for (let i = 0; i < 5; i++) {
        assert.equal((await post(server, { query: '{ ping }' }, auth)).status, 200, `request ${i + 1}`);
      }
      const limited = await post(server, { query: '{ ping }' }, auth);
      assert.equal(limited.status, 429);
      assert.equal(limited.body.errors?.[0]?.extensions?.code, 'RATE_LIMITED');
      const retryAfter = limited.body.errors?.[0]?.extensions?.retryAfter;
      assert.ok(typeof retryAfter === 'number' && retryAfter >= 1 && retryAfter <= 60);
      assert.equal(limited.headers.get('retry-after'), String(retryAfter));
      const other = await session(server, 'other@example.com');
      assert.equal((await post(server, { query: '{ ping }' }, { authorization: `Bearer ${other}` })).status, 200);
    });
  });
}

describe('the depth limit of ordinary queries', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('10 fields deep are answered, 11 refused with VALIDATION_ERROR and the depth', async () => {
    const nestModule: GraphQLModule = {
      typeDefs: 'type Nest { nest: Nest, n: Int } extend type Query { nest: Nest }',
      resolvers: { Query: { nest: () => ({}) }, Nest: { nest: () => ({}), n: () => 1 } },
    };
    const app = await buildApp({
      services: server.running.services,
      authenticate: async () => null,
      logLevel: 'silent',
      modules: [baseModule, nestModule],
    });
    try {
      const nest = (levels: number): string => (levels === 0 ? 'n' : `nest { ${nest(levels - 1)} }`);
      const ten = await app.inject({ method: 'POST', url: '/graphql', payload: { query: `{ ${nest(9)} }` } });
      assert.equal(ten.statusCode, 200, ten.body);
      const eleven = await app.inject({ method: 'POST', url: '/graphql', payload: { query: `{ ${nest(10)} }` } });
      assert.equal(eleven.statusCode, 400);
      const body = eleven.json() as Body;
      assert.equal(body.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.equal(body.errors?.[0]?.message, 'query is nested 11 levels deep, more than the limit of 10');
    } finally {
      await app.close();
    }
  });
});

describe('unexpected resolver errors', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('are masked as INTERNAL with the request id, and logged with it', async () => {
    const boomModule: GraphQLModule = {
      typeDefs: 'extend type Query { boom: Boolean }',
      resolvers: {
        Query: {
          boom: () => {
            throw new Error('database password is hunter2');
          },
        },
      },
    };
    const app = await buildApp({
      services: server.running.services,
      authenticate: async () => null,
      logLevel: 'silent',
      modules: [baseModule, boomModule],
    });
    const logged: unknown[] = [];
    const original = app.log.error.bind(app.log);
    app.log.error = ((...args: Parameters<typeof original>) => {
      logged.push(args[0]);
      return original(...args);
    }) as typeof app.log.error;
    try {
      const response = await app.inject({ method: 'POST', url: '/graphql', payload: { query: '{ ping boom }' } });
      const body = response.json() as Body;
      const requestId = response.headers['x-request-id'];
      assert.equal(typeof requestId, 'string');
      assert.deepEqual(body.data, { ping: true, boom: null });
      assert.equal(body.errors?.[0]?.extensions?.code, 'INTERNAL');
      assert.equal(body.errors?.[0]?.extensions?.requestId, requestId);
      assert.deepEqual(body.errors?.[0]?.path, ['boom']);
      assert.doesNotMatch(JSON.stringify(body), /hunter2/);
      assert.match(body.errors?.[0]?.message ?? '', new RegExp(`request id ${requestId}`));
      const entry = logged.find((item) => (item as { requestId?: string }).requestId === requestId) as
        | { err?: Error }
        | undefined;
      assert.match(entry?.err?.message ?? '', /hunter2/, 'the real error is in the log');
    } finally {
      await app.close();
    }
  });
});
