/**
 * Support for the playback access e2e tests: signing keys and policies through the real GraphQL API, and a customer webhook on 127.0.0.1:0 that verifies the HMAC signature and
 * answers by mode (allow, deny, hang).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '@airwave/server/testing/test-server';

/** A signing key as created (private PEM included). */
export interface CreatedKey {
  readonly id: string;
  readonly kid: string;
  readonly publicKeyPem: string;
  readonly privateKeyPem: string;
}

/** Fails with the whole response unless `value` is present. */
function must<T>(value: T | null | undefined, what: string, response: unknown): T {
  if (value === null || value === undefined) {
    throw new Error(`${what} failed: ${JSON.stringify(response)}`);
  }
  return value;
}

/** Creates a signing key with `createSigningKey`. */
export async function createSigningKey(server: TestServer, token: string, name = 'key'): Promise<CreatedKey> {
  const response = await server.graphql<{
    createSigningKey: {
      __typename: string;
      privateKeyPem?: string;
      signingKey?: { id: string; kid: string; publicKeyPem: string };
    };
  }>(
    `mutation ($input: CreateSigningKeyInput!) {
      createSigningKey(input: $input) {
        __typename
        ... on CreateSigningKeySuccess { privateKeyPem signingKey { id kid publicKeyPem } }
        ... on Error { message }
      }
    }`,
    { input: { name } },
    token,
  );
  const result = response.data?.createSigningKey;
  const key = must(result?.signingKey, 'createSigningKey', response);
  return { ...key, privateKeyPem: must(result?.privateKeyPem, 'createSigningKey', response) };
}

/** Revokes a signing key; returns the result's __typename. */
export async function revokeSigningKey(server: TestServer, token: string, id: string): Promise<string> {
  const response = await server.graphql<{ revokeSigningKey: { __typename: string } }>(
    'mutation ($id: ID!) { revokeSigningKey(id: $id) { __typename } }',
    { id },
    token,
  );
  return must(response.data?.revokeSigningKey.__typename, 'revokeSigningKey', response);
}

/** Result of setPlaybackPolicy as the tests read it. */
export interface SetPolicyResult {
  readonly __typename: string;
  readonly message?: string;
  readonly field?: string;
  readonly constraint?: string;
  readonly playbackPolicy?: {
    type: string;
    jwt: { allowedKids: string[] } | null;
    webhook: { url: string; timeoutMs: number; secretMasked: string } | null;
  };
}

/** Calls `setPlaybackPolicy`. */
export async function setPlaybackPolicy(
  server: TestServer,
  token: string,
  streamId: string,
  policy: Record<string, unknown>,
): Promise<SetPolicyResult> {
  const response = await server.graphql<{ setPlaybackPolicy: SetPolicyResult }>(
    `mutation ($input: SetPlaybackPolicyInput!) {
      setPlaybackPolicy(input: $input) {
        __typename
        ... on Stream { playbackPolicy { type jwt { allowedKids } webhook { url timeoutMs secretMasked } } }
        ... on ValidationError { message field constraint }
        ... on Error { message }
      }
    }`,
    { input: { streamId, policy } },
    token,
  );
  return must(response.data?.setPlaybackPolicy, 'setPlaybackPolicy', response);
}

/** Result of testPlaybackAccess. */
export interface AccessResult {
  readonly __typename: string;
  readonly allowed?: boolean;
  readonly policyType?: string;
  readonly reason?: string;
  readonly detail?: string;
  readonly kid?: string | null;
  readonly webhookStatus?: number | null;
  readonly webhookLatencyMs?: number | null;
  readonly claimsJson?: string | null;
}

/** Calls `testPlaybackAccess`. */
export async function testPlaybackAccess(
  server: TestServer,
  token: string,
  input: Record<string, unknown>,
): Promise<AccessResult> {
  const response = await server.graphql<{ testPlaybackAccess: AccessResult }>(
    `mutation ($input: TestPlaybackAccessInput!) {
      testPlaybackAccess(input: $input) {
        __typename
        ... on PlaybackAccessDecision { allowed policyType reason detail kid webhookStatus webhookLatencyMs claimsJson }
        ... on Error { message }
      }
    }`,
    { input },
    token,
  );
  return must(response.data?.testPlaybackAccess, 'testPlaybackAccess', response);
}

/** How the test webhook answers. */
export type HookMode = 'allow' | 'deny' | 'hang';

/** One call the test webhook received. */
export interface HookCall {
  readonly body: Record<string, unknown>;
  readonly signatureOk: boolean;
  readonly userAgent: string | undefined;
}

/** A customer webhook on 127.0.0.1:0. */
export interface TestHook {
  readonly url: string;
  readonly calls: HookCall[];
  /** Sets how calls to path `/<name>` are answered. */
  mode(name: string, mode: HookMode): void;
  close(): Promise<void>;
}

/**
 * Starts a webhook that verifies `X-Airwave-Signature` with `secret` (a bad signature answers
 * 401); calls for a request URL with `session=slow` hang whatever the mode.
 */
export async function startTestHook(secret: string): Promise<TestHook> {
  const calls: HookCall[] = [];
  const modes = new Map<string, HookMode>();
  const hung: ServerResponse[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
      const given = Buffer.from(String(request.headers['x-airwave-signature'] ?? ''));
      const signatureOk = given.length === expected.length && timingSafeEqual(given, expected);
      calls.push({ body: JSON.parse(raw.toString('utf8')), signatureOk, userAgent: request.headers['user-agent'] });
      const slow = String(calls.at(-1)?.body.requestUrl ?? '').includes('session=slow');
      const mode = slow ? 'hang' : (modes.get((request.url ?? '/').slice(1)) ?? 'allow');
      if (!signatureOk) {
        response.writeHead(401).end();
      } else if (mode === 'allow') {
        response.writeHead(200).end('{"ok":true}');
      } else if (mode === 'deny') {
        response.writeHead(403).end('{"ok":false}');
      } else {
        hung.push(response);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    mode: (name, mode) => {
      modes.set(name, mode);
    },
    close: async () => {
      for (const response of hung) {
        response.destroy();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Where viewers play and encoders publish for a test server. */
export interface PlaybackPlane {
  /** `http://127.0.0.1:<port>`: `/play/...` URLs start here. */
  readonly playBase: string;
  readonly rtmpPort: number;
}

/** The server's own `/play` routes (behind its access gate) and RTMP listener. */
export function playbackPlane(server: TestServer): PlaybackPlane {
  const { rtmp } = server.running.ports;
  if (rtmp === 0) {
    throw new Error('the test server has no RTMP listener (startAirwave did not report running.ports.rtmp)');
  }
  return { playBase: server.baseUrl, rtmpPort: rtmp };
}
