/**
 * Developer tokens over GraphQL on every backend: the value is shown once and stored as a
 * SHA-256 only; listing pages, statuses and lastUsedAt; revocation; tenancy; scope rules.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { developerTokens } from '../../domain/tokens/developer-tokens.tables.js';
import { testBackends } from '../../testing/databases.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

const CREATE = `mutation($input: CreateDeveloperTokenInput!) {
  createDeveloperToken(input: $input) {
    __typename
    ... on DeveloperToken { id tokenName tokenValue permissions scopes status lastUsedAt expiresAt createdAt }
    ... on ValidationError { message field constraint }
    ... on AuthError { message code }
  }
}`;
const LIST = `query($page: ConnectionInput) {
  developerTokensConnection(page: $page) {
    totalCount
    edges { cursor node { id tokenName tokenValue status lastUsedAt } }
    nodes { id }
    pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
  }
}`;
const REVOKE = `mutation($id: ID!) {
  revokeDeveloperToken(id: $id) {
    __typename
    ... on DeleteSuccess { success deletedId pending }
    ... on NotFoundError { message resourceType }
    ... on ValidationError { message field }
    ... on AuthError { message code }
  }
}`;

interface TokenResult {
  __typename: string;
  id?: string;
  tokenName?: string;
  tokenValue?: string | null;
  permissions?: string;
  scopes?: string[];
  status?: string;
  expiresAt?: string | null;
  message?: string;
  field?: string;
  code?: string;
}

interface ListResult {
  developerTokensConnection: {
    totalCount: number;
    edges: {
      cursor: string;
      node: { id: string; tokenName: string; tokenValue: string | null; status: string; lastUsedAt: string | null };
    }[];
    nodes: { id: string }[];
    pageInfo: { startCursor: string | null; endCursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
  };
}

async function signUp(server: TestServer, email: string): Promise<string> {
  const response = await server.graphql<{ register: { token: string } }>(
    'mutation($input: RegisterInput!) { register(input: $input) { ... on AuthPayload { token } } }',
    { input: { email, password: 'token tester' } },
  );
  const token = response.data?.register.token;
  assert.ok(token, JSON.stringify(response));
  return token;
}

async function create(
  server: TestServer,
  bearer: string | undefined,
  input: Record<string, unknown>,
): Promise<TokenResult> {
  const response = await server.graphql<{ createDeveloperToken: TokenResult }>(CREATE, { input }, bearer);
  assert.ok(response.data, JSON.stringify(response.errors));
  return response.data.createDeveloperToken;
}

for (const backend of testBackends()) {
  describe(`developer tokens on ${backend.name}`, () => {
    let server: TestServer;
    let session: string;
    before(async () => {
      server = await startTestServer(backend);
      session = await signUp(server, 'owner@example.com');
    });
    after(async () => {
      await server.close();
    });

    test('the value is aw_ + 43 CSPRNG characters, shown once, stored only as its SHA-256', async () => {
      const token = await create(server, session, {
        name: 'ci',
        permissions: 'streams:read, streams:write',
        expiresIn: 30,
      });
      assert.equal(token.__typename, 'DeveloperToken');
      assert.match(token.tokenValue ?? '', /^aw_[A-Za-z0-9_-]{43}$/);
      assert.equal(token.tokenName, 'ci');
      assert.equal(token.permissions, 'streams:read,streams:write');
      assert.deepEqual(token.scopes, ['streams:read', 'streams:write']);
      assert.equal(token.status, 'active');
      const days = (Date.parse(token.expiresAt ?? '') - Date.now()) / 86_400_000;
      assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
      const other = await create(server, session, { name: 'other', permissions: 'streams:read' });
      assert.notEqual(other.tokenValue, token.tokenValue);
      assert.equal(other.expiresAt, null, 'no expiresIn: never expires');

      const rows = await server.running.database.db.select().from(developerTokens);
      const hashes = rows.map((row) => row.tokenHash);
      const value = token.tokenValue ?? '';
      assert.ok(hashes.includes(createHash('sha256').update(value).digest('hex')));
      assert.ok(!hashes.some((hash) => hash.includes(value.slice(3))), 'the value itself is not stored');

      const list = await server.graphql<ListResult>(LIST, {}, session);
      assert.ok(list.data?.developerTokensConnection.edges.every((edge) => edge.node.tokenValue === null));
    });

    test('a developer token authenticates, records lastUsedAt, and is limited to its scopes', async () => {
      const token = await create(server, session, { name: 'reader', permissions: 'developer:read' });
      const value = token.tokenValue ?? '';
      const list = await server.graphql<ListResult>(LIST, {}, value);
      const mine = list.data?.developerTokensConnection.edges.find((edge) => edge.node.id === token.id);
      assert.ok(mine?.node.lastUsedAt, 'lastUsedAt is set by the use');
      const me = await server.graphql('{ me { id } }', undefined, value);
      assert.equal(me.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      assert.equal(me.errors?.[0]?.extensions?.requiredScope, 'account:read');
      const logout = await server.graphql<{ logout: { __typename: string; message?: string } }>(
        'mutation { logout { __typename ... on AuthError { message } } }',
        undefined,
        value,
      );
      assert.equal(logout.data?.logout.__typename, 'AuthError', 'a developer token is revoked, not logged out');
      assert.match(logout.data?.logout.message ?? '', /revokeDeveloperToken/);
      const denied = await create(server, value, { name: 'child', permissions: 'developer:read' });
      assert.equal(denied.__typename, 'AuthError', 'developer:write is needed to create tokens');
      assert.equal(denied.code, 'FORBIDDEN');
    });

    test('a token with developer:write creates tokens, but only with scopes it has', async () => {
      const writer = await create(server, session, { name: 'writer', permissions: 'developer:write,streams:read' });
      const child = await create(server, writer.tokenValue ?? '', { name: 'child', permissions: 'streams:read' });
      assert.equal(child.__typename, 'DeveloperToken');
      const escalated = await create(server, writer.tokenValue ?? '', { name: 'wider', permissions: 'streams:write' });
      assert.equal(escalated.__typename, 'AuthError');
      assert.match(escalated.message ?? '', /streams:write/);
    });

    test('bad input is a ValidationError naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ name: '', permissions: 'streams:read' }, 'input.name'],
        [{ name: 'x'.repeat(101), permissions: 'streams:read' }, 'input.name'],
        [{ name: 'bad', permissions: 'streams:read,streams:delete' }, 'input.permissions'],
        [{ name: 'bad', permissions: ' , ' }, 'input.permissions'],
        [{ name: 'bad', permissions: 'streams:read', expiresIn: 0 }, 'input.expiresIn'],
        [{ name: 'bad', permissions: 'streams:read', expiresIn: 3651 }, 'input.expiresIn'],
      ];
      for (const [input, field] of cases) {
        const result = await create(server, session, input);
        assert.equal(result.__typename, 'ValidationError', JSON.stringify(input));
        assert.equal(result.field, field, JSON.stringify(input));
      }
      const anonymous = await create(server, undefined, { name: 'anon', permissions: 'streams:read' });
      assert.equal(anonymous.__typename, 'AuthError');
      assert.equal(anonymous.code, 'UNAUTHORIZED');
    });

    test('the connection pages forward and backward with stable cursors', async () => {
      const fresh = await signUp(server, 'pager@example.com');
      const names = ['t1', 't2', 't3', 't4', 't5'];
      for (const name of names) {
        await create(server, fresh, { name, permissions: 'streams:read' });
      }
      const first = await server.graphql<ListResult>(LIST, { page: { first: 2 } }, fresh);
      const page1 = first.data?.developerTokensConnection;
      assert.equal(page1?.totalCount, 5);
      assert.deepEqual(
        page1?.edges.map((edge) => edge.node.tokenName),
        ['t1', 't2'],
      );
      assert.deepEqual(
        page1?.nodes.map((node) => node.id),
        page1?.edges.map((edge) => edge.node.id),
      );
      assert.equal(page1?.pageInfo.hasNextPage, true);
      await create(server, fresh, { name: 't6', permissions: 'streams:read' });
      const second = await server.graphql<ListResult>(
        LIST,
        { page: { first: 3, after: page1?.pageInfo.endCursor } },
        fresh,
      );
      assert.deepEqual(
        second.data?.developerTokensConnection.edges.map((edge) => edge.node.tokenName),
        ['t3', 't4', 't5'],
      );
      assert.equal(second.data?.developerTokensConnection.pageInfo.hasNextPage, true);
      assert.equal(second.data?.developerTokensConnection.pageInfo.hasPreviousPage, true);
      const back = await server.graphql<ListResult>(
        LIST,
        { page: { last: 2, before: second.data?.developerTokensConnection.pageInfo.startCursor } },
        fresh,
      );
      assert.deepEqual(
        back.data?.developerTokensConnection.edges.map((edge) => edge.node.tokenName),
        ['t1', 't2'],
      );
      const bad = await server.graphql(LIST, { page: { after: 'bm90LWEtY3Vyc29y' } }, fresh);
      assert.equal(bad.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.equal(bad.errors?.[0]?.extensions?.field, 'page.after');
      const tooMany = await server.graphql(LIST, { page: { first: 501 } }, fresh);
      assert.equal(tooMany.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
    });

    test('revoke stops the token at once; another tenant sees NOT_FOUND; status reports revoked and expired', async () => {
      const token = await create(server, session, { name: 'short-lived', permissions: 'developer:read' });
      const value = token.tokenValue ?? '';
      assert.equal((await server.graphql(LIST, {}, value)).errors, undefined);

      const stranger = await signUp(server, 'stranger@example.com');
      const foreign = await server.graphql<{ revokeDeveloperToken: TokenResult }>(REVOKE, { id: token.id }, stranger);
      assert.equal(foreign.data?.revokeDeveloperToken.__typename, 'NotFoundError');
      const strangerList = await server.graphql<ListResult>(LIST, {}, stranger);
      assert.equal(strangerList.data?.developerTokensConnection.totalCount, 0);
      const garbage = await server.graphql<{ revokeDeveloperToken: TokenResult }>(REVOKE, { id: 'nope' }, session);
      assert.equal(garbage.data?.revokeDeveloperToken.__typename, 'NotFoundError');
      const anonymous = await server.graphql<{ revokeDeveloperToken: TokenResult }>(REVOKE, { id: token.id });
      assert.equal(anonymous.data?.revokeDeveloperToken.__typename, 'AuthError');

      const revoked = await server.graphql<{
        revokeDeveloperToken: TokenResult & { deletedId?: string; pending?: boolean };
      }>(REVOKE, { id: token.id }, session);
      assert.equal(revoked.data?.revokeDeveloperToken.__typename, 'DeleteSuccess');
      assert.equal(revoked.data?.revokeDeveloperToken.deletedId, token.id);
      assert.equal(revoked.data?.revokeDeveloperToken.pending, false, 'revoked at once');
      const after = await server.graphql(LIST, {}, value);
      assert.equal(after.errors?.[0]?.extensions?.code, 'UNAUTHORIZED');
      assert.match(after.errors?.[0]?.message ?? '', /revoked/);

      const expiring = await create(server, session, { name: 'expiring', permissions: 'developer:read', expiresIn: 1 });
      await server.running.database.execRaw(
        `UPDATE developer_tokens SET expires_at = now() - interval '1 second' WHERE name = 'expiring'`,
      );
      const expired = await server.graphql(LIST, {}, expiring.tokenValue ?? '');
      assert.equal(expired.errors?.[0]?.extensions?.code, 'UNAUTHORIZED');
      const list = await server.graphql<ListResult>(LIST, { page: { first: 100 } }, session);
      const statuses = new Map(
        list.data?.developerTokensConnection.edges.map((edge) => [edge.node.tokenName, edge.node.status]),
      );
      assert.equal(statuses.get('short-lived'), 'revoked');
      assert.equal(statuses.get('expiring'), 'expired');
      assert.equal(statuses.get('ci'), 'active');
    });
  });
}
