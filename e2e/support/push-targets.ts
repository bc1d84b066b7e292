/** GraphQL helpers of the push-target e2e tests. */
import assert from 'node:assert/strict';
import type { TestServer } from '@airwave/server/testing/test-server';
import { waitFor } from './processes.js';

/** The push-target fields the tests read. */
export const PUSH_TARGET_FIELDS =
  'id streamId platform name targetUri isEnabled status lastError lastPushedAt bytesSent bitrateKbps droppedUnits createdAt updatedAt';

/** A push target as read. */
export interface PushTargetView {
  readonly id: string;
  readonly streamId: string;
  readonly platform: string;
  readonly name: string;
  readonly targetUri: string;
  readonly isEnabled: boolean;
  readonly status: string;
  readonly lastError: string | null;
  readonly lastPushedAt: string | null;
  readonly bytesSent: number;
  readonly bitrateKbps: number;
  readonly droppedUnits: number;
}

/** A mutation result: the target or an error member. */
export type PushTargetResult = Partial<PushTargetView> & {
  readonly __typename: string;
  readonly code?: string;
  readonly field?: string;
  readonly constraint?: string;
  readonly message?: string;
};

const RESULT = `__typename ... on PushTarget { ${PUSH_TARGET_FIELDS} } ... on ValidationError { field constraint } ... on Error { code message }`;

/** Calls createPushTarget and answers its result member. */
export async function createPushTarget(
  server: Pick<TestServer, 'graphql'>,
  token: string,
  streamId: string,
  input: Record<string, unknown>,
): Promise<PushTargetResult> {
  const response = await server.graphql<{ createPushTarget: PushTargetResult }>(
    `mutation ($s: ID!, $i: CreatePushTargetInput!) { createPushTarget(streamId: $s, input: $i) { ${RESULT} } }`,
    { s: streamId, i: input },
    token,
  );
  assert.equal(response.errors, undefined, JSON.stringify(response.errors));
  return response.data?.createPushTarget as PushTargetResult;
}

/** Calls updatePushTarget and answers its result member. */
export async function updatePushTarget(
  server: Pick<TestServer, 'graphql'>,
  token: string,
  id: string,
  input: Record<string, unknown>,
): Promise<PushTargetResult> {
  const response = await server.graphql<{ updatePushTarget: PushTargetResult }>(
    `mutation ($id: ID!, $i: UpdatePushTargetInput!) { updatePushTarget(id: $id, input: $i) { ${RESULT} } }`,
    { id, i: input },
    token,
  );
  assert.equal(response.errors, undefined, JSON.stringify(response.errors));
  return response.data?.updatePushTarget as PushTargetResult;
}

/** Calls deletePushTarget and answers its result's typename and code. */
export async function deletePushTarget(
  server: Pick<TestServer, 'graphql'>,
  token: string,
  id: string,
): Promise<PushTargetResult> {
  const response = await server.graphql<{ deletePushTarget: PushTargetResult }>(
    'mutation ($id: ID!) { deletePushTarget(id: $id) { __typename ... on DeleteSuccess { deletedId } ... on Error { code } } }',
    { id },
    token,
  );
  return response.data?.deletePushTarget as PushTargetResult;
}

/** The stream's push targets as its owner polls them. */
export async function readPushTargets(
  server: Pick<TestServer, 'graphql'>,
  token: string,
  streamId: string,
): Promise<PushTargetView[]> {
  const response = await server.graphql<{ stream: { pushTargets: PushTargetView[] } | null }>(
    `query ($id: ID!) { stream(id: $id) { pushTargets { ${PUSH_TARGET_FIELDS} } } }`,
    { id: streamId },
    token,
  );
  assert.equal(response.errors, undefined, JSON.stringify(response.errors));
  return response.data?.stream?.pushTargets ?? [];
}

/** Polls the stream's targets until `check` holds for them; a timeout says what they last were. */
export async function waitTargets(
  server: Pick<TestServer, 'graphql'>,
  token: string,
  streamId: string,
  what: string,
  check: (targets: PushTargetView[]) => boolean,
  timeoutMs = 30_000,
): Promise<PushTargetView[]> {
  let last: PushTargetView[] = [];
  try {
    return await waitFor(
      what,
      async () => {
        last = await readPushTargets(server, token, streamId);
        return check(last) ? last : undefined;
      },
      timeoutMs,
      200,
    );
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; targets: ${JSON.stringify(last)}`);
  }
}
