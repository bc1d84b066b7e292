/**
 * Streams, stream keys and the public queries over real HTTP GraphQL, on every database backend:
 * union results, auth and scopes through real sessions and developer tokens, Relay paging,
 * live status from the real hub through the ingest adapters, and recovery after a restart.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '@airwave/server/db/database';
import { StreamStatusStore } from '@airwave/server/domain/streams/stream-status.store';
import { createScratchDatabase, testBackends } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { testVideoTrack } from '@airwave/server/testing/tracks';
import { createDeveloperToken, registerAccount } from './support/accounts.js';

const STREAM_FIELDS = `
  id streamId name description streamKey playbackId record ingestMode sourceLocation createdAt updatedAt
  pullSource { sourceUriRedacted class enabled allowedClusterIds }
  metrics { status isLive currentViewers startedAt updatedAt nodeId trackCount }
  tracks { trackId trackType codec codecString width height fps bitrateKbps channels sampleRate }
  pushTargets { id status }
`;
const CREATE = `mutation ($input: CreateStreamInput!) {
  createStream(input: $input) {
    __typename
    ... on Stream { ${STREAM_FIELDS} }
    ... on ValidationError { message code field constraint }
    ... on AuthError { message code }
  }
}`;
const GET = `query ($id: ID!) { stream(id: $id) { ${STREAM_FIELDS} } }`;
const LIST = `query ($page: ConnectionInput, $search: String) {
  streamsConnection(page: $page, search: $search) {
    totalCount
    edges { cursor node { name } }
    nodes { name }
    pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
  }
}`;

type StreamView = Record<string, unknown> & {
  __typename: string;
  id: string;
  streamId: string;
  name: string;
  streamKey: string;
  playbackId: string;
  metrics: { status: string; isLive: boolean; currentViewers: number; trackCount: number; nodeId: string | null };
  tracks: Record<string, unknown>[];
};

for (const backend of testBackends()) {
  describe(`streams API on ${backend.name}`, () => {
    let server: TestServer;
    let token: string;

    const create = async (input: Record<string, unknown>, bearer = token) =>
      (await server.graphql<{ createStream: StreamView }>(CREATE, { input }, bearer)).data?.createStream;

    before(async () => {
      server = await startTestServer(backend);
      token = (await registerAccount(server, 'owner')).token;
    });
    after(() => server.close());

    it('creates a stream and reads it back by global and raw ID', async () => {
      const stream = await create({ name: 'Evening show', record: true, sourceLocation: 'Berlin' });
      assert.equal(stream?.__typename, 'Stream');
      assert.ok(stream);
      assert.equal(stream.name, 'Evening show');
      assert.equal(Buffer.from(stream.id, 'base64').toString(), `Stream:${stream.streamId}`);
      assert.match(stream.streamKey, /^sk_[0-9A-Za-z]{28,}$/);
      assert.match(stream.playbackId, /^[0-9A-Za-z]{16,}$/);
      assert.deepEqual(stream.metrics, {
        status: 'OFFLINE',
        isLive: false,
        currentViewers: 0,
        startedAt: null,
        updatedAt: null,
        nodeId: null,
        trackCount: 0,
      });
      assert.deepEqual(stream.pushTargets, []);
      for (const id of [stream.id, stream.streamId]) {
        const read = await server.graphql<{ stream: StreamView }>(GET, { id }, token);
        assert.equal(read.data?.stream.streamKey, stream.streamKey);
        assert.equal(read.data?.stream.name, 'Evening show');
      }
    });

    it('returns typed union members for invalid input and missing auth', async () => {
      const blank = await create({ name: '   ' });
      assert.deepEqual(
        { type: blank?.__typename, field: blank?.field, code: blank?.code },
        { type: 'ValidationError', field: 'input.name', code: 'VALIDATION_ERROR' },
      );
      const pull = await create({
        name: 'rtmp pull',
        ingestMode: 'PULL',
        pullSource: { sourceUri: 'rtmp://8.8.8.8/live/x' },
      });
      assert.equal(pull?.__typename, 'ValidationError');
      assert.match(String(pull?.message), /RTMP pull input is unsupported/);
      const rtsp = await create({
        name: 'camera',
        ingestMode: 'PULL',
        pullSource: { sourceUri: 'rtsp://viewer:secret@8.8.8.8/cam', enabled: false },
      });
      assert.equal(rtsp?.__typename, 'Stream', JSON.stringify(rtsp));
      const view = rtsp?.pullSource as Record<string, unknown>;
      assert.deepEqual(
        { ...view, sourceUriRedacted: undefined },
        {
          sourceUriRedacted: undefined,
          class: 'public',
          enabled: false,
          allowedClusterIds: [],
        },
      );
      assert.doesNotMatch(String(view.sourceUriRedacted), /secret/);
      const anonymous = await server.graphql<{ createStream: StreamView }>(CREATE, { input: { name: 'x' } });
      assert.equal(anonymous.data?.createStream.__typename, 'AuthError');
      assert.equal(anonymous.data?.createStream.code, 'UNAUTHORIZED');
      const query = await server.graphql(LIST, {});
      assert.equal(query.errors?.[0]?.extensions?.code, 'UNAUTHORIZED');
      const missing = await server.graphql(GET, { id: '00000000-0000-4000-8000-000000000000' }, token);
      assert.equal(missing.errors?.[0]?.extensions?.code, 'NOT_FOUND');
      assert.deepEqual(missing.errors?.[0]?.path, ['stream']);
    });

    it('enforces developer-token scopes: streams:read reads but cannot write', async () => {
      const readOnly = await createDeveloperToken(server, token, 'streams:read');
      const listed = await server.graphql(LIST, {}, readOnly.value);
      assert.equal(listed.errors, undefined);
      const denied = await create({ name: 'nope' }, readOnly.value);
      assert.equal(denied?.__typename, 'AuthError');
      assert.equal(denied?.code, 'FORBIDDEN');
      const analytics = await createDeveloperToken(server, token, 'analytics:read');
      const forbidden = await server.graphql(LIST, {}, analytics.value);
      assert.equal(forbidden.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      const writer = await createDeveloperToken(server, token, 'streams:read,streams:write');
      assert.equal((await create({ name: 'by token' }, writer.value))?.__typename, 'Stream');
    });

    it('pages with Relay connections whose cursors survive inserts between pages', async () => {
      const own = (await registerAccount(server, 'pager')).token;
      for (let i = 0; i < 4; i++) {
        await create({ name: `page ${i}` }, own);
      }
      type Page = {
        streamsConnection: {
          totalCount: number;
          nodes: { name: string }[];
          edges: { cursor: string; node: { name: string } }[];
          pageInfo: { endCursor: string; hasNextPage: boolean };
        };
      };
      const first = (await server.graphql<Page>(LIST, { page: { first: 2 } }, own)).data?.streamsConnection;
      assert.deepEqual(
        first?.nodes.map((n) => n.name),
        ['page 3', 'page 2'],
      );
      assert.equal(first?.edges[1]?.cursor, first?.pageInfo.endCursor);
      assert.equal(first?.totalCount, 4);
      await create({ name: 'late arrival' }, own);
      const second = (await server.graphql<Page>(LIST, { page: { first: 2, after: first?.pageInfo.endCursor } }, own))
        .data?.streamsConnection;
      assert.deepEqual(
        second?.nodes.map((n) => n.name),
        ['page 1', 'page 0'],
      );
      assert.equal(second?.pageInfo.hasNextPage, false);
      const tooMany = await server.graphql(
        'query ($page: ConnectionInput) { streamsConnection(page: $page) { totalCount } }',
        { page: { first: 501 } },
        own,
      );
      assert.equal(tooMany.errors?.[0]?.extensions?.code, 'VALIDATION_ERROR');
      assert.equal(tooMany.errors?.[0]?.extensions?.field, 'page.first');
      const searched = (await server.graphql<Page>(LIST, { search: 'LATE' }, own)).data?.streamsConnection;
      assert.deepEqual(
        searched?.nodes.map((n) => n.name),
        ['late arrival'],
      );
    });

    it('updates, keeps ingestMode immutable, manages keys and rotates the primary key', async () => {
      const stream = await create({ name: 'keys' });
      assert.ok(stream);
      const update = await server.graphql<{ updateStream: Record<string, unknown> }>(
        `mutation ($id: ID!, $input: UpdateStreamInput!) {
          updateStream(id: $id, input: $input) { __typename ... on Stream { name record } ... on ValidationError { field constraint } }
        }`,
        { id: stream.id, input: { name: 'renamed', record: true } },
        token,
      );
      assert.deepEqual(update.data?.updateStream, { __typename: 'Stream', name: 'renamed', record: true });
      const immutable = await server.graphql<{ updateStream: Record<string, unknown> }>(
        `mutation ($id: ID!) { updateStream(id: $id, input: { ingestMode: PULL }) { __typename ... on ValidationError { field constraint } } }`,
        { id: stream.id },
        token,
      );
      assert.deepEqual(immutable.data?.updateStream, {
        __typename: 'ValidationError',
        field: 'input.ingestMode',
        constraint: 'immutable',
      });

      const key = await server.graphql<{ createStreamKey: Record<string, unknown> }>(
        `mutation ($id: ID!) { createStreamKey(streamId: $id, input: { name: "backup" }) {
          __typename ... on StreamKey { id keyValue keyName isActive isPrimary lastUsedAt createdAt streamId } } }`,
        { id: stream.id },
        token,
      );
      const backup = key.data?.createStreamKey;
      assert.equal(backup?.__typename, 'StreamKey');
      assert.equal(backup?.keyName, 'backup');
      assert.equal(backup?.isActive, true);
      assert.equal(backup?.streamId, stream.streamId);

      const authorizer = server.running.ingest.authorizer;
      assert.equal((await authorizer.authorize(String(backup?.keyValue), 'rtmp'))?.streamId, stream.streamId);
      const keys = await server.graphql<{
        streamKeysConnection: { totalCount: number; nodes: { keyName: string; lastUsedAt: string | null }[] };
      }>(
        `query ($id: ID!) { streamKeysConnection(streamId: $id) { totalCount nodes { keyName lastUsedAt } } }`,
        { id: stream.id },
        token,
      );
      assert.equal(keys.data?.streamKeysConnection.totalCount, 2);
      assert.ok(keys.data?.streamKeysConnection.nodes.find((k) => k.keyName === 'backup')?.lastUsedAt);

      const refreshed = await server.graphql<{ refreshStreamKey: StreamView }>(
        `mutation ($id: ID!) { refreshStreamKey(id: $id) { __typename ... on Stream { streamKey } } }`,
        { id: stream.id },
        token,
      );
      const newKey = refreshed.data?.refreshStreamKey.streamKey;
      assert.ok(newKey && newKey !== stream.streamKey);
      assert.equal(await authorizer.authorize(stream.streamKey, 'rtmp'), null);
      assert.equal((await authorizer.authorize(newKey, 'srt'))?.streamId, stream.streamId);

      const removed = await server.graphql<{ deleteStreamKey: Record<string, unknown> }>(
        `mutation ($s: ID!, $k: ID!) { deleteStreamKey(streamId: $s, keyId: $k) { __typename ... on DeleteSuccess { success deletedId } } }`,
        { s: stream.id, k: backup?.id },
        token,
      );
      assert.deepEqual(removed.data?.deleteStreamKey, {
        __typename: 'DeleteSuccess',
        success: true,
        deletedId: backup?.id,
      });
      assert.equal(await authorizer.authorize(String(backup?.keyValue), 'rtmp'), null);
    });

    it('reflects the media plane in metrics and networkStatus, and deleteStream ends a live publish', async () => {
      const stream = await create({ name: 'on air' });
      assert.ok(stream);
      const { hub, ingest } = server.running;
      const grant = await ingest.authorizer.authorize(stream.streamKey, 'rtmp');
      assert.ok(grant);
      const publisher = hub.publish(grant, 'rtmp');
      publisher.setDescription({ tracks: [testVideoTrack] });
      const closeViewer = publisher.stream.viewers.open('viewer-1', 'mp4');
      await ingest.lifecycle.flush();
      const live = (await server.graphql<{ stream: StreamView }>(GET, { id: stream.id }, token)).data?.stream;
      assert.equal(live?.metrics.status, 'LIVE');
      assert.equal(live?.metrics.isLive, true);
      assert.equal(live?.metrics.currentViewers, 1);
      assert.equal(live?.metrics.nodeId, server.running.node.nodeId);
      assert.deepEqual(live?.tracks, [
        {
          trackId: 1,
          trackType: 'video',
          codec: 'h264',
          codecString: 'avc1.64001f',
          width: 1280,
          height: 720,
          fps: 30,
          bitrateKbps: 2500,
          channels: null,
          sampleRate: null,
        },
      ]);
      const network = await server.graphql<{
        networkStatus: {
          totalNodes: number;
          clusters: { currentStreams: number; currentViewers: number }[];
          serviceInstances: { serviceId: string; port: number }[];
        };
        serviceInstancesHealth: { serviceId: string; port: number }[];
      }>(
        '{ networkStatus { totalNodes clusters { currentStreams currentViewers } serviceInstances { serviceId port } } serviceInstancesHealth { serviceId port } }',
      );
      const { serviceInstances, ...cluster } = network.data?.networkStatus ?? { serviceInstances: [] };
      assert.deepEqual(cluster, {
        totalNodes: 1,
        clusters: [{ currentStreams: 1, currentViewers: 1 }],
      });
      assert.ok(
        serviceInstances.some((instance) => instance.serviceId === 'graphql'),
        JSON.stringify(serviceInstances),
      );
      assert.deepEqual(
        serviceInstances,
        network.data?.serviceInstancesHealth,
        'the same instances as serviceInstancesHealth',
      );
      closeViewer();

      const deleted = await server.graphql<{ deleteStream: Record<string, unknown> }>(
        `mutation ($id: ID!) { deleteStream(id: $id) { __typename ... on DeleteSuccess { success deletedId pending } } }`,
        { id: stream.streamId },
        token,
      );
      assert.deepEqual(deleted.data?.deleteStream, {
        __typename: 'DeleteSuccess',
        success: true,
        deletedId: stream.id,
        pending: false,
      });
      assert.equal(hub.getByStreamId(stream.streamId), undefined, 'deleted at once (pending false)');
      assert.equal(publisher.stream.endReason, 'stream deleted');
      await ingest.lifecycle.flush();
      const gone = await server.graphql(GET, { id: stream.id }, token);
      assert.equal(gone.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    });

    it('answers the public queries without a token, and no mutation without one', async () => {
      const stream = await create({ name: 'public', record: true });
      assert.ok(stream);
      const resolved = await server.graphql<{ resolveIngestEndpoint: Record<string, Record<string, unknown>> }>(
        `query ($key: String!) { resolveIngestEndpoint(streamKey: $key) {
          primary { nodeId baseUrl rtmpUrl rtmpsUrl srtUrl whipUrl region loadScore kind clusterId }
          fallbacks { nodeId }
          metadata { streamId recordingEnabled title }
        } }`,
        { key: stream.streamKey },
      );
      assert.equal(resolved.errors, undefined);
      const endpoint = resolved.data?.resolveIngestEndpoint;
      const node = server.running.node;
      assert.deepEqual(endpoint?.primary, {
        nodeId: node.nodeId,
        baseUrl: server.baseUrl,
        rtmpUrl: `rtmp://127.0.0.1:${node.rtmpPort}/live/${stream.streamKey}`,
        rtmpsUrl: null,
        srtUrl: `srt://127.0.0.1:${node.srtPort}?streamid=${stream.streamKey}`,
        whipUrl: `${server.baseUrl}/webrtc/${stream.streamKey}`,
        region: null,
        loadScore: 0,
        kind: 'INGEST_ENDPOINT_KIND_NODE_SPECIFIC',
        clusterId: 'local',
      });
      assert.deepEqual(endpoint?.fallbacks, []);
      assert.deepEqual(endpoint?.metadata, { streamId: stream.streamId, recordingEnabled: true, title: 'public' });

      const unknown = await server.graphql('{ resolveIngestEndpoint(streamKey: "sk_nope") { primary { nodeId } } }');
      assert.equal(unknown.errors?.[0]?.extensions?.code, 'NOT_FOUND');
      assert.doesNotMatch(String(unknown.errors?.[0]?.message), /sk_nope/);

      const health = await server.graphql<{ serviceInstancesHealth: Record<string, unknown>[] }>(
        '{ serviceInstancesHealth { instanceId serviceId clusterId protocol host port healthEndpoint status lastHealthCheck } }',
      );
      const graphql = health.data?.serviceInstancesHealth.find((item) => item.serviceId === 'graphql');
      assert.equal(graphql?.port, server.running.ports.http);
      assert.equal(graphql?.status, 'RUNNING');
      const probe = await fetch(String(graphql?.healthEndpoint));
      assert.equal(probe.status, 200);
      assert.deepEqual(await probe.json(), { data: { ping: true } });
      assert.ok(health.data?.serviceInstancesHealth.some((item) => item.serviceId === 'rtmp'));

      const network = await server.graphql<{ networkStatus: Record<string, unknown> }>(
        '{ networkStatus { totalNodes healthyNodes peerConnections { sourceCluster } nodes { nodeId status clusterId } clusters { clusterId nodeCount status } updatedAt } }',
      );
      assert.equal(network.errors, undefined);
      assert.equal(network.data?.networkStatus.totalNodes, 1);
      assert.deepEqual(network.data?.networkStatus.nodes, [
        { nodeId: node.nodeId, status: 'HEALTHY', clusterId: 'local' },
      ]);

      for (const mutation of [
        'mutation { deleteStream(id: "x") { __typename ... on AuthError { code } } }',
        'mutation { refreshStreamKey(id: "x") { __typename ... on AuthError { code } } }',
        'mutation { createStreamKey(streamId: "x", input: { name: "k" }) { __typename ... on AuthError { code } } }',
      ]) {
        const response = await server.graphql<Record<string, { __typename: string; code: string }>>(mutation);
        const member = Object.values(response.data ?? {})[0];
        assert.deepEqual(member, { __typename: 'AuthError', code: 'UNAUTHORIZED' }, mutation);
      }
    });
  });

  describe(`public lookup limit on ${backend.name}`, () => {
    it('limits resolveIngestEndpoint per client IP (60 per minute), answering RATE_LIMITED with retryAfter', async () => {
      const server = await startTestServer(backend);
      try {
        const query = '{ resolveIngestEndpoint(streamKey: "sk_probe") { primary { nodeId } } }';
        // The budget refills continuously (one lookup a second): on a slow machine a few more than
        // 60 may pass before the limit, so count lookups until it answers instead of timing them.
        let answered = 0;
        let limited = await server.graphql(query);
        while (limited.errors?.[0]?.extensions?.code === 'NOT_FOUND' && answered < 600) {
          answered++;
          limited = await server.graphql(query);
        }
        assert.ok(
          answered >= 60,
          `only ${answered} lookups answered NOT_FOUND before ${JSON.stringify(limited.errors)}`,
        );
        assert.equal(limited.errors?.[0]?.extensions?.code, 'RATE_LIMITED');
        assert.ok(Number(limited.errors?.[0]?.extensions?.retryAfter) >= 1);
        const other = await server.graphql('{ networkStatus { totalNodes } }');
        assert.equal(other.errors, undefined, 'other public queries keep working');
      } finally {
        await server.close();
      }
    });
  });

  describe(`restart on ${backend.name}`, () => {
    it('sets OFFLINE a stream this node left LIVE when it stopped without ending it', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'airwave-restart-'));
      const scratch = backend.name === 'postgres' ? await createScratchDatabase() : undefined;
      const env: Record<string, string> = scratch ? { DATABASE_URL: scratch.url } : {};
      try {
        let server = await startTestServer(backend, env, { dataDir });
        const token = (await registerAccount(server, 'restart')).token;
        const created = await server.graphql<{ createStream: StreamView }>(CREATE, { input: { name: 'crash' } }, token);
        const stream = created.data?.createStream;
        assert.ok(stream);
        const nodeId = server.running.node.nodeId;
        await server.close();

        const database = await openDatabase({ dataDir, databaseUrl: scratch?.url });
        await new StreamStatusStore(database.db).report(stream.streamId, {
          status: 'LIVE',
          nodeId,
          startedAt: new Date(),
          tracks: [],
          at: new Date(),
        });
        await database.close();

        server = await startTestServer(backend, env, { dataDir });
        try {
          assert.equal(server.running.node.nodeId, nodeId);
          const read = await server.graphql<{ stream: StreamView }>(GET, { id: stream.id }, token);
          assert.equal(read.data?.stream.metrics.status, 'OFFLINE');
          assert.equal(read.data?.stream.metrics.isLive, false);
        } finally {
          await server.close();
        }
      } finally {
        await scratch?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
