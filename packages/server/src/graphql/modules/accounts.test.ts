/**
 * Accounts over GraphQL on every backend: register, login, logout, me, the session cookie,
 * UNAUTHORIZED for bad tokens, uniform login failures and the login rate limit (shared by two
 * servers on one PostgreSQL database).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tenants, users } from '../../domain/accounts/accounts.tables.js';
import { createScratchDatabase, postgresMissing, type ScratchDatabase, testBackends } from '../../testing/databases.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

const AUTH_FIELDS = `__typename
  ... on AuthPayload { token expiresAt user { id email name createdAt } }
  ... on ValidationError { message field constraint }
  ... on AuthError { message code }
  ... on RateLimitError { message retryAfter }`;
const REGISTER = `mutation($input: RegisterInput!) { register(input: $input) { ${AUTH_FIELDS.replace(/\.\.\. on (AuthError|RateLimitError) \{[^}]*\}/g, '')} } }`;
const LOGIN = `mutation($input: LoginInput!) { login(input: $input) { ${AUTH_FIELDS} } }`;

interface AuthResult {
  __typename: string;
  token?: string;
  expiresAt?: string;
  user?: { id: string; email: string; name: string | null; createdAt: string };
  message?: string;
  field?: string;
  constraint?: string;
  retryAfter?: number;
}

async function register(server: TestServer, email: string, password = 'correct horse', name = 'Tester') {
  const response = await server.graphql<{ register: AuthResult }>(REGISTER, { input: { email, password, name } });
  return { response, result: response.data?.register };
}

async function login(server: TestServer, email: string, password: string) {
  const response = await server.graphql<{ login: AuthResult }>(LOGIN, { input: { email, password } });
  return { response, result: response.data?.login };
}

async function rawGraphql(server: TestServer, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return {
    response,
    body: (await response.json()) as {
      data: Record<string, unknown> | null;
      errors?: { message: string; extensions?: Record<string, unknown> }[];
    },
  };
}

for (const backend of testBackends()) {
  describe(`accounts on ${backend.name}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(backend);
    });
    after(async () => {
      await server.close();
    });

    test('register creates a tenant and its first user, signs in, and sets the session cookie', async () => {
      const tenantsBefore = await server.running.database.db.select().from(tenants);
      const { response, result } = await register(server, 'Alice@Example.com', 'correct horse', 'Alice');
      assert.equal(result?.__typename, 'AuthPayload');
      assert.match(result?.token ?? '', /^[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.equal(result?.user?.email, 'Alice@Example.com');
      assert.equal(result?.user?.name, 'Alice');
      const expires = Date.parse(result?.expiresAt ?? '');
      assert.ok(expires > Date.now() + 6 * 86_400_000, 'session lasts about a week');
      const cookie = response.headers.get('set-cookie') ?? '';
      assert.match(cookie, /^airwave_session=[\w.-]+;/);
      assert.match(cookie, /HttpOnly/i);
      assert.match(cookie, /SameSite=Lax/i);
      assert.match(cookie, /Path=\//);
      assert.doesNotMatch(cookie, /Secure/i, 'plain http public URL: no Secure attribute');

      const me = await server.graphql<{ me: { id: string; email: string } }>(
        '{ me { id email name } }',
        undefined,
        result?.token,
      );
      assert.deepEqual(me.data?.me, { id: result?.user?.id, email: 'Alice@Example.com', name: 'Alice' });
      const db = server.running.database.db;
      const tenantsAfter = await db.select().from(tenants);
      assert.equal(tenantsAfter.length, tenantsBefore.length + 1, 'register adds exactly one tenant');
      const user = (await db.select().from(users)).find((row) => row.email === 'Alice@Example.com');
      const created = tenantsAfter.find((tenant) => tenant.id === user?.tenantId);
      assert.ok(created, "the user's tenant row exists");
      assert.ok(!tenantsBefore.some((tenant) => tenant.id === created.id), 'the tenant is new');
    });

    test('register validates email, password length and uniqueness (ignoring case)', async () => {
      const cases: [Record<string, string>, string, string][] = [
        [{ email: '', password: 'long enough' }, 'input.email', 'required'],
        [{ email: 'not-an-email', password: 'long enough' }, 'input.email', 'format'],
        [{ email: 'short@example.com', password: 'seven77' }, 'input.password', 'length'],
        [{ email: 'long@example.com', password: 'x'.repeat(1025) }, 'input.password', 'length'],
        [{ email: ' spaced@example.com', password: 'long enough' }, 'input.email', 'whitespace'],
      ];
      for (const [input, field, constraint] of cases) {
        const response = await server.graphql<{ register: AuthResult }>(REGISTER, { input });
        assert.equal(response.data?.register.__typename, 'ValidationError', JSON.stringify(input));
        assert.equal(response.data?.register.field, field);
        assert.equal(response.data?.register.constraint, constraint);
      }
      await register(server, 'dup@example.com');
      const again = await register(server, 'DUP@example.com');
      assert.equal(again.result?.__typename, 'ValidationError');
      assert.equal(again.result?.field, 'input.email');
      assert.equal(again.result?.constraint, 'unique');
      const exact = await register(server, 'x8@example.com', '12345678');
      assert.equal(exact.result?.__typename, 'AuthPayload', 'eight characters are enough');
    });

    test('login answers the same AuthError for a wrong password and an unknown email', async () => {
      await register(server, 'bob@example.com', 'bob password');
      const ok = await login(server, 'BOB@example.com', 'bob password');
      assert.equal(ok.result?.__typename, 'AuthPayload');
      assert.equal(ok.result?.user?.email, 'bob@example.com');
      assert.match(ok.response.headers.get('set-cookie') ?? '', /airwave_session=/);
      const wrongPassword = await login(server, 'bob@example.com', 'not his password');
      const unknownEmail = await login(server, 'nobody@example.com', 'bob password');
      assert.equal(wrongPassword.result?.__typename, 'AuthError');
      assert.deepEqual(wrongPassword.result, unknownEmail.result);
      assert.equal(wrongPassword.result?.message, 'invalid email or password');
      assert.equal(wrongPassword.response.headers.get('set-cookie'), null);
    });

    test('the session cookie authenticates; a cookie mutation without X-Airwave-CSRF is FORBIDDEN; logout revokes the session and clears the cookie', async () => {
      const { result } = await register(server, 'carol@example.com');
      const token = result?.token ?? '';
      const cookie = `airwave_session=${token}`;
      const viaCookie = await rawGraphql(server, '{ me { email } }', { cookie });
      assert.deepEqual(viaCookie.body.data, { me: { email: 'carol@example.com' } });

      const logoutMutation = 'mutation { logout { __typename ... on LogoutPayload { success } } }';
      const forged = await rawGraphql(server, logoutMutation, { cookie });
      assert.equal(forged.body.errors?.[0]?.extensions?.code, 'FORBIDDEN', 'a cookie mutation needs the CSRF header');
      const logout = await rawGraphql(server, logoutMutation, { cookie, 'x-airwave-csrf': '1' });
      assert.deepEqual(logout.body.data, { logout: { __typename: 'LogoutPayload', success: true } });
      assert.match(logout.response.headers.get('set-cookie') ?? '', /airwave_session=;.*Expires=Thu, 01 Jan 1970/i);

      const bearer = await server.graphql('{ ping }', undefined, token);
      assert.equal(bearer.status, 200);
      assert.equal(bearer.data, null);
      assert.equal(bearer.errors?.[0]?.extensions?.code, 'UNAUTHORIZED');
      const stale = await rawGraphql(server, '{ ping }', { cookie });
      assert.equal(stale.body.errors?.[0]?.extensions?.code, 'UNAUTHORIZED', 'a revoked cookie is not anonymous');
      assert.match(stale.response.headers.get('set-cookie') ?? '', /airwave_session=;/, 'and is cleared');
      const anonymous = await rawGraphql(server, '{ ping }');
      assert.deepEqual(anonymous.body.data, { ping: true });
    });

    test('bad credentials are UNAUTHORIZED, never anonymous; anonymous me and logout are refused', async () => {
      const { result } = await register(server, 'dave@example.com');
      const token = result?.token ?? '';
      const [header, payload] = token.split('.');
      const tampered = `${header}.${payload}.${'A'.repeat(43)}`;
      for (const authorization of [
        `Bearer ${tampered}`,
        'Bearer not-a-jwt',
        'Bearer aw_unknowndevelopertoken0000000000000000000',
        'Basic abc',
        'Bearer',
      ]) {
        const { response, body } = await rawGraphql(server, '{ ping }', { authorization });
        assert.equal(response.status, 200, authorization);
        assert.equal(body.data, null, authorization);
        assert.equal(body.errors?.[0]?.extensions?.code, 'UNAUTHORIZED', authorization);
        assert.ok((body.errors?.[0]?.message ?? '').length > 0);
      }
      const me = await server.graphql('{ me { id } }');
      assert.equal(me.errors?.[0]?.extensions?.code, 'UNAUTHORIZED');
      assert.deepEqual(me.errors?.[0]?.path, ['me']);
      const logout = await server.graphql<{ logout: AuthResult }>(
        'mutation { logout { __typename ... on AuthError { message } } }',
      );
      assert.equal(logout.data?.logout.__typename, 'AuthError');
    });

    test('repeated login failures are rate limited per email with retryAfter; the right password then waits too', async () => {
      await register(server, 'erin@example.com', 'erin password');
      for (let i = 0; i < 5; i++) {
        const { result } = await login(server, 'erin@example.com', `wrong ${i}`);
        assert.equal(result?.__typename, 'AuthError', `attempt ${i + 1}`);
      }
      const limited = await login(server, 'erin@example.com', 'erin password');
      assert.equal(limited.result?.__typename, 'RateLimitError');
      assert.ok((limited.result?.retryAfter ?? 0) > 0 && (limited.result?.retryAfter ?? 0) <= 15 * 60);
      const otherAccount = await register(server, 'frank@example.com', 'frank password');
      assert.equal(otherAccount.result?.__typename, 'AuthPayload');
      const other = await login(server, 'frank@example.com', 'frank password');
      assert.equal(other.result?.__typename, 'AuthPayload', 'another email from the same IP still signs in');
    });

    test('repeated failures are rate limited per IP across emails', async () => {
      let last: AuthResult | undefined;
      for (let i = 0; i < 21; i++) {
        last = (await login(server, `spray${i}@example.com`, 'guess guess')).result;
      }
      assert.equal(last?.__typename, 'RateLimitError');
    });
  });
}

describe('the session cookie behind an https public URL', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(undefined, { AIRWAVE_PUBLIC_URL: 'https://live.example.com' });
  });
  after(async () => {
    await server.close();
  });

  test('is Secure', async () => {
    const { response, result } = await register(server, 'secure@example.com');
    assert.equal(result?.__typename, 'AuthPayload');
    assert.match(response.headers.get('set-cookie') ?? '', /; Secure/);
  });
});

describe('accounts across two servers on one PostgreSQL database', {
  skip: postgresMissing,
}, () => {
  let scratch: ScratchDatabase;
  let first: TestServer;
  let second: TestServer;
  before(async () => {
    scratch = await createScratchDatabase();
    [first, second] = await Promise.all([
      startTestServer({ name: 'postgres' }, { DATABASE_URL: scratch.url }),
      startTestServer({ name: 'postgres' }, { DATABASE_URL: scratch.url }),
    ]);
  });
  after(async () => {
    await first?.close();
    await second?.close();
    await scratch?.drop();
  });

  test('both share one session secret: a token from one works on the other', async () => {
    const { result } = await register(first, 'shared@example.com');
    const me = await second.graphql<{ me: { email: string } }>('{ me { email } }', undefined, result?.token);
    assert.equal(me.data?.me.email, 'shared@example.com');
  });

  test('the login limit counts attempts made on either server', async () => {
    await register(first, 'grace@example.com', 'grace password');
    for (let i = 0; i < 5; i++) {
      const server = i % 2 === 0 ? first : second;
      assert.equal((await login(server, 'grace@example.com', `wrong ${i}`)).result?.__typename, 'AuthError');
    }
    assert.equal((await login(first, 'grace@example.com', 'grace password')).result?.__typename, 'RateLimitError');
    assert.equal((await login(second, 'grace@example.com', 'grace password')).result?.__typename, 'RateLimitError');
  });
});
