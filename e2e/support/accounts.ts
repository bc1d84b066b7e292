/**
 * Test support: accounts, developer tokens and streams through the real GraphQL mutations.
 */
import { randomBytes } from 'node:crypto';
import type { TestServer } from '@airwave/server/testing/test-server';

/** A signed-up account: its session token and email. */
export interface TestAccount {
  readonly token: string;
  readonly email: string;
}

/** Registers a new account (a new tenant) with `register` and returns its session token. */
export async function registerAccount(server: TestServer, label = 'user'): Promise<TestAccount> {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.test`;
  const response = await server.graphql<{ register: { __typename: string; token?: string; message?: string } }>(
    `mutation ($input: RegisterInput!) {
      register(input: $input) { __typename ... on AuthPayload { token } ... on Error { message } }
    }`,
    { input: { email, password: 'correct horse battery', name: label } },
  );
  const result = response.data?.register;
  if (result?.__typename !== 'AuthPayload' || !result.token) {
    throw new Error(`register failed: ${JSON.stringify(response)}`);
  }
  return { token: result.token, email };
}

/** Creates a developer token with `permissions` (comma-separated scopes); returns its id and value. */
export async function createDeveloperToken(
  server: TestServer,
  sessionToken: string,
  permissions: string,
): Promise<{ id: string; value: string }> {
  const response = await server.graphql<{
    createDeveloperToken: { __typename: string; id?: string; tokenValue?: string };
  }>(
    `mutation ($input: CreateDeveloperTokenInput!) {
      createDeveloperToken(input: $input) { __typename ... on DeveloperToken { id tokenValue } ... on Error { message } }
    }`,
    { input: { name: `token ${permissions}`, permissions } },
    sessionToken,
  );
  const result = response.data?.createDeveloperToken;
  if (result?.__typename !== 'DeveloperToken' || !result.id || !result.tokenValue) {
    throw new Error(`createDeveloperToken failed: ${JSON.stringify(response)}`);
  }
  return { id: result.id, value: result.tokenValue };
}

/** A stream as `createStream` returned it. */
export interface CreatedStream {
  /** Global ID (the argument of `stream(id)`). */
  readonly id: string;
  readonly streamId: string;
  readonly playbackId: string;
  readonly streamKey: string;
}

/** Creates a stream named `name` with `createStream` as the holder of `token`. */
export async function createStream(server: TestServer, token: string, name = 'protected'): Promise<CreatedStream> {
  const response = await server.graphql<{ createStream: Partial<CreatedStream> & { __typename: string } }>(
    `mutation ($input: CreateStreamInput!) {
      createStream(input: $input) { __typename ... on Stream { id streamId playbackId streamKey } ... on Error { message } }
    }`,
    { input: { name } },
    token,
  );
  const stream = response.data?.createStream;
  if (stream?.__typename !== 'Stream') {
    throw new Error(`createStream failed: ${JSON.stringify(response)}`);
  }
  return stream as CreatedStream;
}
