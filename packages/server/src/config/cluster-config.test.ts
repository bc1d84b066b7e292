import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.js';

test('cluster settings: defaults, --role media, a position, trusted proxies', () => {
  const defaults = loadConfig({}, []);
  assert.equal(defaults.role, 'all');
  assert.equal(defaults.nodeId, undefined);
  assert.equal(defaults.nodeLocation, undefined);
  assert.equal(defaults.heartbeatMs, 5000);
  assert.equal(defaults.viewerAnalytics, true);
  assert.equal(defaults.analyticsFlushMs, 2000);
  assert.equal(defaults.playbackCacheUrl, undefined);
  const media = loadConfig(
    {
      AIRWAVE_NODE_ID: 'edge-1',
      AIRWAVE_NODE_LATITUDE: '50.11',
      AIRWAVE_NODE_LONGITUDE: '8.68',
      AIRWAVE_TRUSTED_PROXIES: '10.0.0.0/8, ::1',
      AIRWAVE_VIEWER_ANALYTICS: 'false',
    },
    ['--role', 'media', '--node-mode', 'draining', '--playback-cache-url', 'http://127.0.0.1:8081/'],
  );
  assert.equal(media.playbackCacheUrl, 'http://127.0.0.1:8081', 'no trailing slash: paths start with one');
  assert.equal(media.role, 'media');
  assert.equal(media.nodeMode, 'draining');
  assert.deepEqual(media.nodeLocation, { latitude: 50.11, longitude: 8.68 });
  assert.equal(media.viewerAnalytics, false);
});

test('cluster settings refuse what cannot work, naming the setting', () => {
  const message = (env: Record<string, string>) => {
    try {
      loadConfig(env, []);
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.message;
    }
    assert.fail('expected a ConfigError');
  };
  assert.match(message({ AIRWAVE_ROLE: 'edge' }), /AIRWAVE_ROLE/);
  assert.match(message({ AIRWAVE_NODE_LATITUDE: '91', AIRWAVE_NODE_LONGITUDE: '0' }), /AIRWAVE_NODE_LATITUDE/);
  assert.match(message({ AIRWAVE_NODE_LATITUDE: '10' }), /must be set together/);
  assert.match(message({ AIRWAVE_TRUSTED_PROXIES: '10.0.0.0/40' }), /AIRWAVE_TRUSTED_PROXIES.*10\.0\.0\.0\/40/s);
  assert.match(message({ AIRWAVE_NODE_ID: 'has space' }), /AIRWAVE_NODE_ID/);
  assert.match(message({ AIRWAVE_METRICS_TOKEN: 'short' }), /AIRWAVE_METRICS_TOKEN/);
  assert.match(message({ AIRWAVE_PLAYBACK_CACHE_URL: 'nginx:8081' }), /AIRWAVE_PLAYBACK_CACHE_URL/);
});
