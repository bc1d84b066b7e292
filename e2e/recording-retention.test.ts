/**
 * Retention on the real service (sweeping every second): the tenant's DVR default deletes a
 * recording finished longer ago — its objects on storage, its row, with artifact-deleted and DVR
 * deleted events — while a stream's override keeps another stream's equally old recording and a
 * recording a clip still uses stays until that clip goes; a clip given its own end by
 * `updateMediaRetention` is deleted once it passes, and then its recording; the cascade reads
 * back through `resetMediaRetentionOverride`, `Stream.retentionOverrides`, the storage artifacts
 * and `mediaRetentionPolicy`; bad input is a ValidationError naming the field.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RecordingsStore } from '@airwave/server/domain/recordings/recordings.store';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './support/accounts.js';
import { waitFor } from './support/processes.js';
import { seedClip, seedRecording } from './support/recordings.js';
import { record, subscribed, wsUrl } from './support/subscriptions.js';

const DAY_MS = 86_400_000;

interface Listed {
  hash: string;
  kind: string;
  expiresAt: string | null;
  effectiveRetention: { retentionDays: number; source: string } | null;
}

describe('media retention', () => {
  let server: TestServer;
  let token: string;
  let store: RecordingsStore;

  before(async () => {
    server = await startTestServer(undefined, { AIRWAVE_RETENTION_SWEEP_SECONDS: '1' });
    token = (await registerAccount(server, 'keeper')).token;
    store = new RecordingsStore(server.running.database.db);
  });
  after(() => server.close());

  async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await server.graphql<T>(query, variables, token);
    assert.equal(response.errors, undefined, JSON.stringify(response.errors));
    assert.ok(response.data);
    return response.data;
  }

  /** Seeds a finished recording of a stream and moves its end `days` back; answers its hash and storage path. */
  async function agedRecording(streamId: string, days: number): Promise<{ dvrHash: string; path: string }> {
    const seeded = await seedRecording(server, streamId);
    return aged(seeded.id, days);
  }

  async function aged(recordingId: string, days: number): Promise<{ dvrHash: string; path: string }> {
    const row = await store.updateRecording(recordingId, { endedAt: new Date(Date.now() - days * DAY_MS) });
    assert.ok(row);
    const path = join(server.running.config.storageDir, row.storagePrefix);
    assert.ok(existsSync(path), `seeded objects at ${path}`);
    return { dvrHash: row.dvrHash, path };
  }

  const listed = async (streamId: string, kinds: string[]) =>
    (
      await gql<{ storageArtifactsConnection: { nodes: Listed[] } }>(
        `query ($input: StorageArtifactsInput) { storageArtifactsConnection(input: $input) {
          nodes { hash kind expiresAt effectiveRetention { retentionDays source } } } }`,
        { input: { streamId, kinds, first: 100 } },
      )
    ).storageArtifactsConnection.nodes;

  it('deletes what expired under the tenant default, keeps stream overrides and recordings clips use', async () => {
    const a = await createStream(server, token, 'retained a');
    const b = await createStream(server, token, 'retained b');
    const events = record(
      wsUrl(server),
      token,
      'subscription ($id: ID!) { liveStorageEvents(streamId: $id) { action assetType assetHash } }',
      { id: a.id },
    );
    const dvrEvents = record(
      wsUrl(server),
      token,
      'subscription ($id: ID!) { liveDvrLifecycle(streamId: $id) { status dvrHash } }',
      { id: a.id },
    );
    await subscribed(server, 2);

    // Stream A: an old recording, and an old one with a fresh clip. Stream B: an old one, kept by its override.
    const old = await agedRecording(a.streamId, 10);
    const clipId = await seedClip(server, token, a.id);
    const clip = (
      await gql<{ clip: { clipHash: string; effectiveRetention: { source: string; retentionDays: number } } }>(
        'query ($id: ID!) { clip(id: $id) { clipHash effectiveRetention { source retentionDays } } }',
        { id: clipId },
      )
    ).clip;
    assert.deepEqual(clip.effectiveRetention, { source: 'TIER_ENTITLEMENT', retentionDays: 30 });
    const newest = (await store.recordingsOfStream(a.streamId, 1))[0];
    assert.ok(newest);
    const clipped = await aged(newest.id, 10);
    const kept = await agedRecording(b.streamId, 10);

    const overrides = await gql<{ setStreamRetentionOverrides: Record<string, unknown> }>(
      `mutation ($input: SetStreamRetentionOverridesInput!) { setStreamRetentionOverrides(input: $input) {
        __typename ... on StreamRetentionOverrides { streamId dvrRetentionDaysOverride clipRetentionDaysOverride } } }`,
      { input: { streamId: b.id, dvrRetentionDaysOverride: 30 } },
    );
    assert.deepEqual(overrides.setStreamRetentionOverrides, {
      __typename: 'StreamRetentionOverrides',
      streamId: b.streamId,
      dvrRetentionDaysOverride: 30,
      clipRetentionDaysOverride: null,
    });
    const policy = await gql<{ setMediaRetentionPolicy: Record<string, unknown> }>(
      `mutation { setMediaRetentionPolicy(input: { targetType: DVR, days: 7 }) {
        __typename ... on MediaRetentionPolicy { defaultDvrRetentionDays effectiveDvrRetentionDays defaultClipRetentionDays effectiveClipRetentionDays effectiveVodRetentionDays } } }`,
    );
    assert.deepEqual(policy.setMediaRetentionPolicy, {
      __typename: 'MediaRetentionPolicy',
      defaultDvrRetentionDays: 7,
      effectiveDvrRetentionDays: 7,
      defaultClipRetentionDays: null,
      effectiveClipRetentionDays: 30,
      effectiveVodRetentionDays: 0,
    });

    await waitFor('the old recording of stream A to be swept', async () =>
      (await listed(a.id, ['DVR'])).every((item) => item.hash !== old.dvrHash),
    );
    assert.equal(existsSync(old.path), false, 'its objects are gone from storage');
    await events.waitFor(
      (result) =>
        result.data?.liveStorageEvents?.action === 'ARTIFACT_DELETED' &&
        result.data.liveStorageEvents.assetHash === old.dvrHash,
      'artifact deleted (the old recording)',
    );
    await dvrEvents.waitFor(
      (result) =>
        result.data?.liveDvrLifecycle?.status === 'DELETED' && result.data.liveDvrLifecycle.dvrHash === old.dvrHash,
      'DVR deleted',
    );
    const aLeft = await listed(a.id, ['DVR']);
    assert.deepEqual(
      aLeft.map((item) => item.hash),
      [clipped.dvrHash],
      'the recording the clip uses is kept although expired',
    );
    assert.equal(aLeft[0]?.effectiveRetention?.source, 'TENANT_DEFAULT');
    assert.ok(aLeft[0]?.expiresAt && Date.parse(aLeft[0].expiresAt) < Date.now());
    const bLeft = await listed(b.id, ['DVR']);
    assert.deepEqual(
      bLeft.map((item) => [item.hash, item.effectiveRetention]),
      [[kept.dvrHash, { retentionDays: 30, source: 'PER_STREAM_OVERRIDE' }]],
    );
    assert.ok(existsSync(kept.path));

    // The clip gets its own end; once past, it goes, and then the recording it held.
    const until = new Date(Date.now() + 1500).toISOString();
    const updated = await gql<{ updateMediaRetention: Record<string, unknown> }>(
      `mutation ($input: UpdateMediaRetentionInput!) { updateMediaRetention(input: $input) {
        __typename ... on EffectiveRetention { retentionDays retentionUntil source } } }`,
      { input: { targetType: 'CLIP', targetId: clipId, retentionUntil: until } },
    );
    assert.deepEqual(updated.updateMediaRetention, {
      __typename: 'EffectiveRetention',
      retentionDays: 1,
      retentionUntil: until,
      source: 'PER_ASSET_OVERRIDE',
    });
    await waitFor(
      'the clip and then its recording to be swept',
      async () => (await listed(a.id, ['DVR', 'CLIP'])).length === 0,
    );
    assert.equal(existsSync(clipped.path), false);
    await events.waitFor(
      (result) =>
        result.data?.liveStorageEvents?.action === 'ARTIFACT_DELETED' &&
        result.data.liveStorageEvents.assetType === 'clip' &&
        result.data.liveStorageEvents.assetHash === clip.clipHash,
      'artifact deleted (the clip)',
    );
    const gone = await server.graphql('query ($id: ID!) { clip(id: $id) { id } }', { id: clipId }, token);
    assert.equal(gone.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    await Promise.all([events.close(), dvrEvents.close()]);

    // An asset override, then its reset: the stream's override applies again.
    const dvrId = bLeft[0]?.hash as string;
    const own = await gql<{ updateMediaRetention: { source: string; retentionDays: number; retentionUntil: null } }>(
      `mutation ($id: ID!) { updateMediaRetention(input: { targetType: DVR, targetId: $id, retentionDays: 0 }) {
        ... on EffectiveRetention { source retentionDays retentionUntil } } }`,
      { id: dvrId },
    );
    assert.deepEqual(own.updateMediaRetention, {
      source: 'PER_ASSET_OVERRIDE',
      retentionDays: 0,
      retentionUntil: null,
    });
    const reset = await gql<{ resetMediaRetentionOverride: { source: string; retentionDays: number } }>(
      `mutation ($id: ID!) { resetMediaRetentionOverride(input: { targetType: DVR, targetId: $id }) {
        ... on EffectiveRetention { source retentionDays } } }`,
      { id: dvrId },
    );
    assert.deepEqual(reset.resetMediaRetentionOverride, { source: 'PER_STREAM_OVERRIDE', retentionDays: 30 });
    const read = await gql<{
      stream: { retentionOverrides: Record<string, unknown> };
      mediaRetentionPolicy: Record<string, unknown>;
    }>(
      `query ($id: ID!) { stream(id: $id) { retentionOverrides { dvrRetentionDaysOverride clipRetentionDaysOverride } }
        mediaRetentionPolicy { defaultDvrRetentionDays } }`,
      { id: b.id },
    );
    assert.deepEqual(read.stream.retentionOverrides, { dvrRetentionDaysOverride: 30, clipRetentionDaysOverride: null });
    assert.deepEqual(read.mediaRetentionPolicy, { defaultDvrRetentionDays: 7 });
  });

  it('answers a ValidationError naming the field for bad retention input', async () => {
    const stream = await createStream(server, token, 'validated');
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'mutation ($input: SetMediaRetentionPolicyInput!) { r: setMediaRetentionPolicy(input: $input) { ... on ValidationError { field } } }',
        { input: { targetType: 'CLIP', days: -1 } },
        'input.days',
      ],
      [
        'mutation ($input: SetMediaRetentionPolicyInput!) { r: setMediaRetentionPolicy(input: $input) { ... on ValidationError { field } } }',
        { input: { targetType: 'VOD' } },
        'input.days',
      ],
      [
        'mutation ($input: SetStreamRetentionOverridesInput!) { r: setStreamRetentionOverrides(input: $input) { ... on ValidationError { field } } }',
        { input: { streamId: stream.id, clipRetentionDaysOverride: 4000 } },
        'input.clipRetentionDaysOverride',
      ],
      [
        'mutation ($input: UpdateMediaRetentionInput!) { r: updateMediaRetention(input: $input) { ... on ValidationError { field } } }',
        { input: { targetType: 'CLIP', targetId: 'x', retentionDays: 1, retentionUntil: new Date().toISOString() } },
        'input.retentionDays',
      ],
    ];
    for (const [query, variables, field] of cases) {
      const data = await gql<{ r: { field?: string } }>(query, variables);
      assert.equal(data.r.field, field, JSON.stringify(variables));
    }
  });
});
