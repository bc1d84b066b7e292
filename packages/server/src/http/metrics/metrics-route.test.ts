import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseMetrics, sampleValue } from '../../testing/prometheus.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';
import { testAudioTrack, testVideoTrack } from '../../testing/tracks.js';

const TOKEN = 'metrics-token-0123456789';

describe('/metrics', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ name: 'pglite' }, { AIRWAVE_METRICS_TOKEN: TOKEN });
  });
  after(() => server.close());

  const scrape = async () => {
    const response = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return parseMetrics(await response.text());
  };

  it('refuses scrapes without the configured bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789']) {
      const response = await fetch(`${server.baseUrl}/metrics`, authorization ? { headers: { authorization } } : {});
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    }
  });

  it('parses with the reference parser, and its counters move with ingest, viewers and GraphQL requests', async () => {
    const first = await scrape();
    for (const name of [
      'airwave_streams_live',
      'airwave_viewers',
      'airwave_ingest_bytes_total',
      'airwave_egress_bytes_total',
      'airwave_dropped_frames_total',
      'airwave_packager_errors_total',
      'airwave_recorder_errors_total',
      'airwave_graphql_request_duration_seconds',
      'airwave_viewer_sessions_open',
      'airwave_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_utilization',
    ]) {
      assert.ok(first.has(name), `${name} is exposed`);
    }
    const lag = sampleValue(first, 'nodejs_eventloop_lag_seconds') ?? -1;
    assert.ok(lag > 0, 'the event-loop lag is measured by the scrape itself, the first one included');
    const utilization = sampleValue(first, 'nodejs_eventloop_utilization') ?? -1;
    assert.ok(utilization > 0 && utilization <= 1, 'the event-loop utilization is a busy share');
    assert.equal(first.get('airwave_ingest_bytes_total')?.type, 'COUNTER');
    assert.equal(first.get('airwave_graphql_request_duration_seconds')?.type, 'HISTOGRAM');
    const publisher = server.running.hub.publish(
      { streamId: '6d7f1b8e-8f51-4f3e-9d0b-6a2f9c1e4b11', playbackId: 'metricsprobe' },
      'rtmp',
    );
    publisher.setDescription({ tracks: [testVideoTrack, testAudioTrack] });
    for (let i = 0; i < 30; i++) {
      publisher.write({ trackId: 1, dts: i * 3000, pts: i * 3000, key: i === 0, data: new Uint8Array(1000) });
    }
    publisher.stream.viewers.touch('viewer-1', 'llhls');
    publisher.stream.viewers.touch('viewer-2', 'dash');
    server.running.metrics.recorderFailed('segment_write');
    assert.equal((await server.graphql('{ ping }')).status, 200);
    const timed = (families: Awaited<ReturnType<typeof scrape>>) =>
      sampleValue(families, 'airwave_graphql_request_duration_seconds') ?? 0;
    const before = timed(first);
    let second = await scrape();
    // The duration is recorded once the response has gone out, just after the client has it.
    for (let i = 0; i < 100 && timed(second) <= before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      second = await scrape();
    }
    assert.equal(
      sampleValue(second, 'airwave_ingest_bytes_total'),
      (sampleValue(first, 'airwave_ingest_bytes_total') ?? 0) + 30_000,
    );
    assert.equal(sampleValue(second, 'airwave_streams_live', { source: 'ingest' }), 1);
    assert.equal(sampleValue(second, 'airwave_viewers', { protocol: 'llhls' }), 1);
    assert.equal(sampleValue(second, 'airwave_viewers', { protocol: 'dash' }), 1);
    assert.equal(sampleValue(second, 'airwave_recorder_errors_total', { reason: 'segment_write' }), 1);
    assert.ok(timed(second) > before, 'the GraphQL request was timed');
    const memory = (purpose: string) => sampleValue(second, 'airwave_memory_bytes', { purpose }) ?? -1;
    assert.equal(memory('media_gop_cache'), 30_000, 'the GOP cache holds the 30 units of the open GOP');
    assert.ok(memory('v8_heap_used') > 0 && memory('v8_heap_total') >= memory('v8_heap_used'));
    assert.ok(memory('database_in_process') > 0, 'PGlite runs inside the process');
    for (const purpose of ['array_buffers', 'external', 'media_history', 'media_ts_window', 'media_cmaf_window']) {
      assert.ok(memory(purpose) >= 0, `${purpose} is reported`);
    }
    publisher.close('done');
    server.running.hub.stop('6d7f1b8e-8f51-4f3e-9d0b-6a2f9c1e4b11', 'test over');
    const third = await scrape();
    assert.equal(
      sampleValue(third, 'airwave_ingest_bytes_total'),
      sampleValue(second, 'airwave_ingest_bytes_total'),
      'totals outlive the stream',
    );
    assert.equal(sampleValue(third, 'airwave_streams_live', { source: 'ingest' }), 0);
  });

  it('answers /healthz with the node id', async () => {
    const response = await fetch(`${server.baseUrl}/healthz`);
    assert.deepEqual(await response.json(), { status: 'ok', nodeId: server.running.node.nodeId });
  });
});
