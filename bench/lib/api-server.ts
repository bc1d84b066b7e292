/**
 * The in-process Airwave of the API benchmarks' server child: started on ephemeral ports in
 * AIRWAVE_BENCH_DATA_DIR (on AIRWAVE_BENCH_DATABASE_URL when set), with an account and a
 * `streams:read` developer token made through GraphQL.
 */
import type { RunningAirwave } from '@airwave/server/main/start';

/** A started server, a GraphQL caller and the credentials made on it. */
export interface ApiServer {
  readonly running: RunningAirwave;
  readonly graphqlUrl: string;
  /** Posts a GraphQL document (with `token` as bearer). */
  call(
    query: string,
    variables: Record<string, unknown>,
    token?: string,
  ): Promise<{ data: Record<string, Record<string, unknown>> }>;
  /** Session token of the account. */
  readonly session: string;
  /** A developer token with `streams:read`. */
  readonly token: string;
}

/** Starts the server with AIRWAVE_* overrides `env` and signs up. */
export async function startApiServer(env: Record<string, string> = {}): Promise<ApiServer> {
  const { loadConfig } = await import('@airwave/server/config/config');
  const { startAirwave } = await import('@airwave/server/main/start');
  const config = loadConfig({
    AIRWAVE_HOST: '127.0.0.1',
    AIRWAVE_HTTP_PORT: '0',
    AIRWAVE_RTMP_PORT: '0',
    AIRWAVE_SRT_PORT: '0',
    AIRWAVE_DATA_DIR: process.env.AIRWAVE_BENCH_DATA_DIR ?? '',
    AIRWAVE_LOG_LEVEL: 'silent',
    AIRWAVE_API_RATE_LIMIT: '0',
    ...(process.env.AIRWAVE_BENCH_DATABASE_URL ? { DATABASE_URL: process.env.AIRWAVE_BENCH_DATABASE_URL } : {}),
    ...env,
  });
  const running = await startAirwave(config);
  const graphqlUrl = `http://127.0.0.1:${running.ports.http}/graphql`;
  const call: ApiServer['call'] = async (query, variables, token) => {
    const response = await fetch(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data: Record<string, Record<string, unknown>> };
  };
  const registered = await call(
    'mutation ($input: RegisterInput!) { register(input: $input) { ... on AuthPayload { token } } }',
    { input: { email: `bench-${Date.now()}@example.test`, password: 'benchmark password' } },
  );
  const session = String(registered.data.register?.token);
  const developer = await call(
    'mutation { createDeveloperToken(input: { name: "bench", permissions: "streams:read" }) { ... on DeveloperToken { tokenValue } } }',
    {},
    session,
  );
  return { running, graphqlUrl, call, session, token: String(developer.data.createDeveloperToken?.tokenValue) };
}
