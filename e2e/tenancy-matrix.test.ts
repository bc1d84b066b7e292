/**
 * Tenancy matrix: tenant B calls every ID-taking operation of the schema (queries, mutations and
 * subscriptions, found by introspection) on tenant A's IDs, in global and raw-UUID form, and
 * must get NOT_FOUND each time; A's data is unchanged afterwards. An ID-taking operation missing
 * from the table fails the suite, so new operations cannot skip the matrix. Also: a
 * `streams:read` developer token cannot run any stream mutation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createDeveloperToken, createStream, registerAccount } from './support/accounts.js';
import { createSigningKey } from './support/playback-access.js';
import { seedClip, seedRecording } from './support/recordings.js';
import {
  introspect,
  named,
  printRef,
  type SchemaField,
  type SchemaRoot,
  type SchemaType,
  type TypeRef,
} from './support/schema-introspection.js';
import { wsUrl } from './support/subscriptions.js';

/** IDs of one tenant's records, each as [global ID, raw UUID]. */
interface Fixture {
  readonly token: string;
  readonly stream: readonly [string, string];
  readonly playbackId: string;
  readonly streamKey: readonly [string, string];
  readonly developerToken: readonly [string, string];
  readonly signingKey: readonly [string, string];
  /** A recording of the stream: [global ID, raw UUID]. */
  readonly dvr: readonly [string, string];
  readonly pushTarget: readonly [string, string];
  /** A clip of that recording: [global ID, raw UUID]. */
  readonly clip: readonly [string, string];
  readonly vodAsset: readonly [string, string];
  /** The store's upload ID (one form). */
  readonly vodUpload: string;
}

type Form = 0 | 1;

/** How one operation is called on the victim's IDs; several argument sets may be tried. */
type Entry =
  | { readonly calls: (victim: Fixture, attacker: Fixture, form: Form) => Record<string, unknown>[] }
  | { readonly exempt: string };

/** Every ID-taking operation of the schema, keyed `Type.field`. */
const TABLE: Readonly<Record<string, Entry>> = {
  'Query.stream': { calls: (a, _b, f) => [{ id: a.stream[f] }] },
  'Query.streamKeysConnection': { calls: (a, _b, f) => [{ streamId: a.stream[f] }] },
  'Query.signingKey': { calls: (a, _b, f) => [{ id: a.signingKey[f] }] },
  'Mutation.updateStream': { calls: (a, _b, f) => [{ id: a.stream[f], input: { name: 'hijacked', record: true } }] },
  'Mutation.deleteStream': { calls: (a, _b, f) => [{ id: a.stream[f] }] },
  'Mutation.refreshStreamKey': { calls: (a, _b, f) => [{ id: a.stream[f] }] },
  'Mutation.createStreamKey': { calls: (a, _b, f) => [{ streamId: a.stream[f], input: { name: 'intruder' } }] },
  'Mutation.deleteStreamKey': {
    calls: (a, b, f) => [
      { streamId: a.stream[f], keyId: a.streamKey[f] },
      { streamId: b.stream[f], keyId: a.streamKey[f] },
    ],
  },
  'Mutation.createPushTarget': {
    calls: (a, _b, f) => [{ streamId: a.stream[f], input: { name: 'intruder', targetUri: 'rtmp://1.1.1.1/app/key' } }],
  },
  'Mutation.updatePushTarget': {
    calls: (a, _b, f) => [{ id: a.pushTarget[f], input: { name: 'hijacked', isEnabled: false } }],
  },
  'Mutation.deletePushTarget': { calls: (a, _b, f) => [{ id: a.pushTarget[f] }] },
  'Mutation.revokeDeveloperToken': { calls: (a, _b, f) => [{ id: a.developerToken[f] }] },
  'Mutation.revokeSigningKey': { calls: (a, _b, f) => [{ id: a.signingKey[f] }] },
  'Mutation.setPlaybackPolicy': {
    calls: (a, _b, f) => [
      { input: { streamId: a.stream[f], policy: { type: 'JWT', jwt: { allowedKids: [] } } } },
      { input: { clipId: a.clip[f], policy: { type: 'JWT', jwt: { allowedKids: [] } } } },
      { input: { vodAssetId: a.vodAsset[f], policy: { type: 'JWT', jwt: { allowedKids: [] } } } },
    ],
  },
  'Mutation.testPlaybackAccess': { calls: (a) => [{ input: { playbackId: a.playbackId } }] },
  'Mutation.setStreamSrtPassphrase': {
    calls: (a, _b, f) => [
      { streamId: a.stream[f], passphrase: 'an intruder passphrase' },
      { streamId: a.stream[f], passphrase: null },
    ],
  },
  'Query.vodAsset': { calls: (a, _b, f) => [{ id: a.vodAsset[f] }] },
  'Query.vodUploadStatus': { calls: (a) => [{ uploadId: a.vodUpload }] },
  'Mutation.completeVodUpload': {
    calls: (a) => [{ input: { uploadId: a.vodUpload, parts: [{ partNumber: 1, etag: '"etag"' }] } }],
  },
  'Mutation.abortVodUpload': { calls: (a) => [{ uploadId: a.vodUpload }] },
  'Mutation.deleteVodAsset': { calls: (a, _b, f) => [{ id: a.vodAsset[f] }] },
  'Subscription.liveStreamEvents': { calls: (a, _b, f) => [{ streamId: a.stream[f] }] },
  'Subscription.liveViewerMetrics': { calls: (a, _b, f) => [{ streamId: a.stream[f] }] },
  'Subscription.liveConnectionEvents': { calls: (a, _b, f) => [{ streamId: a.stream[f] }] },
  'Subscription.liveDvrLifecycle': { calls: (a, _b, f) => [{ streamId: a.stream[f] }] },
  'Subscription.liveStorageEvents': { calls: (a, _b, f) => [{ streamId: a.stream[f] }] },
  'Subscription.liveVodLifecycle': { calls: (a, _b, f) => [{ streamId: a.stream[f] }] },
  'Subscription.liveProcessingEvents': { calls: (a, _b, f) => [{ streamId: a.stream[f] }] },
  'Query.storageArtifactsConnection': { calls: (a, _b, f) => [{ input: { streamId: a.stream[f] } }] },
  'Query.dvrChapters': { calls: (a, _b, f) => [{ dvrId: a.dvr[f] }] },
  'Query.dvrChapter': { calls: (a, _b, f) => [{ dvrId: a.dvr[f], startMs: 0, endMs: 1 }] },
  'Mutation.startDVR': { calls: (a, _b, f) => [{ streamId: a.stream[f] }] },
  'Mutation.stopDVR': { calls: (a, _b, f) => [{ dvrHash: a.dvr[f] }] },
  'Mutation.deleteDVR': { calls: (a, _b, f) => [{ dvrHash: a.dvr[f] }] },
  'Query.clip': { calls: (a, _b, f) => [{ id: a.clip[f] }] },
  'Mutation.deleteClip': { calls: (a, _b, f) => [{ id: a.clip[f] }] },
  'Mutation.createClip': {
    calls: (a, _b, f) => [{ input: { streamId: a.stream[f], title: 'intruder', mode: 'CLIP_NOW', duration: 2 } }],
  },
  'Mutation.setStreamRetentionOverrides': {
    calls: (a, _b, f) => [
      { input: { streamId: a.stream[f], dvrRetentionDaysOverride: 1 } },
      { input: { streamId: a.stream[f], clearClipRetentionOverride: true } },
    ],
  },
  'Mutation.updateMediaRetention': {
    calls: (a, _b, f) => [
      { input: { targetType: 'DVR', targetId: a.dvr[f], retentionDays: 1 } },
      { input: { targetType: 'CLIP', targetId: a.clip[f], retentionDays: 1 } },
      { input: { targetType: 'VOD', targetId: a.vodAsset[f], retentionDays: 1 } },
    ],
  },
  'Mutation.resetMediaRetentionOverride': {
    calls: (a, _b, f) => [
      { input: { targetType: 'DVR', targetId: a.dvr[f] } },
      { input: { targetType: 'CLIP', targetId: a.clip[f] } },
      { input: { targetType: 'VOD', targetId: a.vodAsset[f] } },
    ],
  },
  'Query.resolveViewerEndpoint': { exempt: 'public viewer query: playback IDs are public by design (spec §5.4)' },
  'Query.serviceInstancesHealth': { exempt: 'public; serviceId names a kind of service (graphql, rtmp), not a record' },
};

/** The schema as the matrix needs it. */
class SchemaIndex {
  constructor(
    private readonly types: ReadonlyMap<string, SchemaType>,
    readonly roots: readonly SchemaRoot[],
  ) {}

  /** Every root field as [`Root.field`, field]. */
  operations(): [string, SchemaField, string][] {
    return this.roots.flatMap(({ name, type }) =>
      (this.types.get(type)?.fields ?? []).map(
        (field) => [`${name}.${field.name}`, field, name] as [string, SchemaField, string],
      ),
    );
  }

  /** True when a value of `ref` carries an ID (an ID scalar or an `…Id` string, directly or in an input object). */
  carriesId(ref: TypeRef, fieldName: string, seen = new Set<string>()): boolean {
    const name = named(ref);
    if (name === 'ID' || (name === 'String' && /Id$/.test(fieldName))) {
      return true;
    }
    const type = this.types.get(name);
    if (type?.kind !== 'INPUT_OBJECT' || seen.has(name)) {
      return false;
    }
    seen.add(name);
    return (type.inputFields ?? []).some((field) => this.carriesId(field.type, field.name, seen));
  }

  /** A selection that reads `__typename` and, on unions of Error members, `code`. */
  selection(ref: TypeRef): string {
    const type = this.types.get(named(ref));
    if (!type || type.kind === 'SCALAR' || type.kind === 'ENUM') {
      return '';
    }
    const errorMember = (type.possibleTypes ?? []).some((member) =>
      (this.types.get(member.name)?.interfaces ?? []).some((i) => i.name === 'Error'),
    );
    return errorMember ? '{ __typename ... on Error { code message } }' : '{ __typename }';
  }
}

function isNotFound(
  body: { data?: unknown; errors?: readonly { extensions?: Record<string, unknown> }[] },
  field: string,
) {
  if (body.errors?.some((error) => error.extensions?.code === 'NOT_FOUND')) {
    return true;
  }
  const value = (body.data as Record<string, { __typename?: string; code?: string } | null> | null | undefined)?.[
    field
  ];
  return value?.__typename === 'NotFoundError' || value?.code === 'NOT_FOUND';
}

async function subscribeOnce(
  server: TestServer,
  token: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<{ data?: unknown; errors?: readonly { extensions?: Record<string, unknown>; message: string }[] }> {
  const client = createClient({
    url: wsUrl(server),
    webSocketImpl: WebSocket,
    connectionParams: { authToken: token },
    retryAttempts: 0,
    lazy: true,
  });
  try {
    return await new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ errors: [{ message: 'no answer within 5 s' }] }), 5000);
      const settle = (value: Parameters<typeof resolve>[0]) => {
        clearTimeout(timer);
        resolve(value);
      };
      client.subscribe(
        { query, variables },
        {
          next: (value) => settle(value as Parameters<typeof resolve>[0]),
          error: (error) =>
            settle({
              errors: Array.isArray(error)
                ? (error as { extensions?: Record<string, unknown>; message: string }[])
                : [{ message: String(error) }],
            }),
          complete: () => settle({ errors: [{ message: 'completed without an answer' }] }),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

function rawOf(globalId: string): string {
  const decoded = Buffer.from(globalId, 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1);
}

async function fixture(server: TestServer, label: string): Promise<Fixture> {
  const { token } = await registerAccount(server, label);
  const stream = await createStream(server, token, 'victim stream');
  const key = await server.graphql<{ createStreamKey: { id: string } }>(
    'mutation ($id: ID!) { createStreamKey(streamId: $id, input: { name: "backup" }) { ... on StreamKey { id } } }',
    { id: stream.id },
    token,
  );
  const keyId = key.data?.createStreamKey.id;
  assert.ok(keyId, JSON.stringify(key));
  const developer = await createDeveloperToken(server, token, 'streams:read');
  const signingId = (await createSigningKey(server, token, 'victim key')).id;
  const target = await server.graphql<{ createPushTarget: { id: string } }>(
    'mutation ($id: ID!) { createPushTarget(streamId: $id, input: { name: "restream", targetUri: "rtmp://1.1.1.1/app/secret" }) { ... on PushTarget { id } } }',
    { id: stream.id },
    token,
  );
  const targetId = target.data?.createPushTarget.id;
  assert.ok(targetId, JSON.stringify(target));
  const recording = (await seedRecording(server, stream.streamId)).id;
  const clip = await seedClip(server, token, stream.id);
  const upload = await server.graphql<{ createVodUpload: { id: string; artifactId: string } }>(
    'mutation { createVodUpload(input: { filename: "v.mp4", sizeBytes: 1000 }) { ... on VodUploadSession { id artifactId } } }',
    {},
    token,
  );
  const session = upload.data?.createVodUpload;
  assert.ok(session?.id, JSON.stringify(upload));
  return {
    token,
    stream: [stream.id, stream.streamId],
    playbackId: stream.playbackId,
    streamKey: [keyId, rawOf(keyId)],
    developerToken: [developer.id, rawOf(developer.id)],
    signingKey: [signingId, rawOf(signingId)],
    dvr: [Buffer.from(`DVRRequest:${recording}`).toString('base64'), recording],
    pushTarget: [targetId, rawOf(targetId)],
    clip: [clip, rawOf(clip)],
    vodAsset: [session.artifactId, rawOf(session.artifactId)],
    vodUpload: session.id,
  };
}

const SNAPSHOT = `query ($id: ID!, $key: ID!) {
  stream(id: $id) { name record streamKey playbackId metrics { status } playbackPolicy { type } srtPassphraseSet pushTargets { id name isEnabled targetUri } }
  streamKeysConnection(streamId: $id) { totalCount nodes { id keyValue isActive } }
  developerTokensConnection { nodes { id status } }
  signingKey(id: $key) { id status }
}`;

for (const backend of testBackends()) {
  describe(`tenancy matrix on ${backend.name}`, () => {
    let server: TestServer;
    let schema: SchemaIndex;
    let a: Fixture;
    let b: Fixture;

    before(async () => {
      server = await startTestServer(backend);
      const { types, roots } = await introspect(server);
      schema = new SchemaIndex(types, roots);
      a = await fixture(server, 'tenant-a');
      b = await fixture(server, 'tenant-b');
    });
    after(() => server.close());

    it('has a table entry for every ID-taking operation of the schema', () => {
      const idTaking = schema
        .operations()
        .filter(([, field]) => field.args.some((arg) => schema.carriesId(arg.type, arg.name)))
        .map(([key]) => key);
      const missing = idTaking.filter((key) => !(key in TABLE));
      assert.deepEqual(missing, [], `add these operations to the tenancy matrix: ${missing.join(', ')}`);
      const stale = Object.keys(TABLE).filter(
        (key) => !idTaking.includes(key) && !schema.operations().some(([name]) => name === key),
      );
      assert.ok(idTaking.length >= 8, `found only ${idTaking.length} ID-taking operations`);
      assert.deepEqual(
        stale.filter((key) => !('exempt' in (TABLE[key] as Entry))),
        [],
        'table entries for operations the schema no longer has',
      );
    });

    it("answers NOT_FOUND to tenant B for every operation on tenant A's IDs, in global and raw form, changing nothing", async () => {
      const before = await server.graphql(SNAPSHOT, { id: a.stream[0], key: a.signingKey[0] }, a.token);
      assert.equal(before.errors, undefined, JSON.stringify(before.errors));
      const failures: string[] = [];
      let calls = 0;
      for (const [key, field, root] of schema.operations()) {
        const entry = TABLE[key];
        if (!entry || 'exempt' in entry) {
          continue;
        }
        const definitions = field.args.map((arg) => `$${arg.name}: ${printRef(arg.type)}`).join(', ');
        const passing = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
        const operation = root === 'Query' ? 'query' : root === 'Mutation' ? 'mutation' : 'subscription';
        const document = `${operation} Matrix${definitions ? `(${definitions})` : ''} { ${field.name}${
          passing ? `(${passing})` : ''
        } ${schema.selection(field.type)} }`;
        for (const form of [0, 1] as const) {
          for (const variables of entry.calls(a, b, form)) {
            calls++;
            const body =
              root === 'Subscription'
                ? await subscribeOnce(server, b.token, document, variables)
                : await server.graphql(document, variables, b.token);
            if (!isNotFound(body, field.name)) {
              failures.push(
                `${key} ${form === 0 ? 'global' : 'raw'} ${JSON.stringify(variables)} → ${JSON.stringify(body).slice(0, 300)}`,
              );
            }
          }
        }
      }
      assert.deepEqual(failures, [], `${failures.length} of ${calls} calls did not answer NOT_FOUND`);
      assert.ok(calls >= 30, `only ${calls} calls made`);
      const afterwards = await server.graphql(SNAPSHOT, { id: a.stream[0], key: a.signingKey[0] }, a.token);
      assert.deepEqual(afterwards.data, before.data, "tenant A's data changed");
    });

    it('refuses every stream mutation to a streams:read developer token (AuthError FORBIDDEN), changing nothing', async () => {
      const readOnly = await createDeveloperToken(server, a.token, 'streams:read');
      const before = await server.graphql(SNAPSHOT, { id: a.stream[0], key: a.signingKey[0] }, a.token);
      const mutations: [string, string, Record<string, unknown>][] = [
        [
          'createStream',
          'mutation ($n: String!) { createStream(input: { name: $n }) { __typename ... on Error { code } } }',
          { n: 'x' },
        ],
        [
          'updateStream',
          'mutation ($id: ID!) { updateStream(id: $id, input: { name: "y" }) { __typename ... on Error { code } } }',
          { id: a.stream[0] },
        ],
        [
          'deleteStream',
          'mutation ($id: ID!) { deleteStream(id: $id) { __typename ... on Error { code } } }',
          { id: a.stream[0] },
        ],
        [
          'refreshStreamKey',
          'mutation ($id: ID!) { refreshStreamKey(id: $id) { __typename ... on Error { code } } }',
          { id: a.stream[0] },
        ],
        [
          'createStreamKey',
          'mutation ($id: ID!) { createStreamKey(streamId: $id, input: { name: "z" }) { __typename ... on Error { code } } }',
          { id: a.stream[0] },
        ],
        [
          'deleteStreamKey',
          'mutation ($id: ID!, $k: ID!) { deleteStreamKey(streamId: $id, keyId: $k) { __typename ... on Error { code } } }',
          { id: a.stream[0], k: a.streamKey[0] },
        ],
        [
          'setStreamSrtPassphrase',
          'mutation ($id: ID!) { setStreamSrtPassphrase(streamId: $id, passphrase: "read-only token") { __typename ... on Error { code } } }',
          { id: a.stream[0] },
        ],
      ];
      for (const [name, document, variables] of mutations) {
        const response = await server.graphql<Record<string, { __typename: string; code: string }>>(
          document,
          variables,
          readOnly.value,
        );
        assert.deepEqual(response.data?.[name], { __typename: 'AuthError', code: 'FORBIDDEN' }, name);
      }
      const afterwards = await server.graphql(SNAPSHOT, { id: a.stream[0], key: a.signingKey[0] }, a.token);
      const streams = (data: unknown) => {
        const { stream, streamKeysConnection } = data as Record<string, unknown>;
        return { stream, streamKeysConnection };
      };
      assert.deepEqual(streams(afterwards.data), streams(before.data));
    });

    it("answers NOT_FOUND to tenant B for ID-taking analytics fields on tenant A's streams (nested under analytics)", async () => {
      const range = { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' };
      const document = `query ($id: ID!, $range: TimeRangeInput!) { analytics { usage { streaming {
        streamAnalyticsDailyConnection(streamId: $id, timeRange: $range) { totalCount } } } } }`;
      for (const form of [0, 1] as const) {
        const attacked = await server.graphql(document, { id: a.stream[form], range }, b.token);
        assert.ok(isNotFound(attacked, 'analytics'), JSON.stringify(attacked));
      }
      const own = await server.graphql(document, { id: a.stream[0], range }, a.token);
      assert.equal(own.errors, undefined, JSON.stringify(own.errors));
    });
  });
}
