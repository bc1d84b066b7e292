/**
 * Configuration: defaults, flags overriding the environment, and clear errors naming each bad
 * setting.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { ConfigError, flagsToEnv, loadConfig } from './config.js';

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected a ConfigError');
}

test('defaults match the README: ports 8080/1935/8889, data in ./data, PGlite, 6000 requests/min', () => {
  const config = loadConfig({}, []);
  assert.equal(config.httpPort, 8080);
  assert.equal(config.rtmpPort, 1935);
  assert.equal(config.srtPort, 8889);
  assert.equal(config.host, '0.0.0.0');
  assert.equal(config.dataDir, resolve('./data'));
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.publicUrl, undefined);
  assert.equal(config.apiRateLimitPerMinute, 6000);
});

test('flags override environment variables, in both --name value and --name=value forms', () => {
  const config = loadConfig({ AIRWAVE_HTTP_PORT: '9000', AIRWAVE_HOST: '10.0.0.1' }, [
    '--http-port',
    '9100',
    '--host=127.0.0.1',
    '--database-url',
    'postgres://u@db/airwave',
    '--public-url=https://live.example.com/',
  ]);
  assert.equal(config.httpPort, 9100);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.databaseUrl, 'postgres://u@db/airwave');
  assert.equal(config.publicUrl, 'https://live.example.com');
  assert.equal(loadConfig({ AIRWAVE_HTTP_PORT: '9000' }, []).httpPort, 9000);
  assert.equal(loadConfig({ AIRWAVE_HTTP_PORT: '' }, []).httpPort, 8080, 'an empty variable means unset');
});

test('the HTTP API listens on a Unix socket only when AIRWAVE_HTTP_SOCKET or --http-socket names one (absolute path)', () => {
  assert.equal(loadConfig({}, []).httpSocket, undefined);
  assert.equal(loadConfig({ AIRWAVE_HTTP_SOCKET: 'run/http.sock' }, []).httpSocket, resolve('run/http.sock'));
  assert.equal(loadConfig({}, ['--http-socket', '/run/airwave/http.sock']).httpSocket, '/run/airwave/http.sock');
});

test('a bad port names the variable and the rule', () => {
  assert.match(
    errorOf(() => loadConfig({ AIRWAVE_HTTP_PORT: '70000' }, [])),
    /AIRWAVE_HTTP_PORT: .*65535/,
  );
  assert.match(
    errorOf(() => loadConfig({}, ['--rtmp-port', 'abc'])),
    /AIRWAVE_RTMP_PORT/,
  );
  assert.match(
    errorOf(() => loadConfig({ AIRWAVE_SRT_PORT: '-1' }, [])),
    /AIRWAVE_SRT_PORT/,
  );
});

test('a bad DATABASE_URL says it must be a postgres URL', () => {
  assert.match(
    errorOf(() => loadConfig({ DATABASE_URL: 'mysql://localhost/db' }, [])),
    /DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/,
  );
});

test('unknown flags and flags without a value are refused by name', () => {
  assert.match(
    errorOf(() => flagsToEnv(['--http-prot', '1'])),
    /unknown flag --http-prot/,
  );
  assert.match(
    errorOf(() => flagsToEnv(['--http-port'])),
    /flag --http-port needs a value/,
  );
});

test('every problem is listed at once; other rules are explained', () => {
  const message = errorOf(() =>
    loadConfig({ AIRWAVE_HTTP_PORT: 'x', AIRWAVE_PUBLIC_URL: 'ftp://host', AIRWAVE_SESSION_SECRET: 'short' }, []),
  );
  assert.match(message, /^invalid configuration:/);
  assert.match(message, /AIRWAVE_HTTP_PORT/);
  assert.match(message, /AIRWAVE_PUBLIC_URL/);
  assert.match(message, /AIRWAVE_SESSION_SECRET: must be at least 32 characters/);
  assert.match(
    errorOf(() => loadConfig({ AIRWAVE_TLS_CERT: '/c.pem' }, [])),
    /must be set together/,
  );
  assert.match(
    errorOf(() => loadConfig({ AIRWAVE_API_RATE_LIMIT: '-5' }, [])),
    /AIRWAVE_API_RATE_LIMIT/,
  );
});

test('packaging is on demand with a 60 s idle time unless told otherwise, and refuses unknown modes', () => {
  const defaults = loadConfig({}, []);
  assert.equal(defaults.packaging, 'on-demand');
  assert.equal(defaults.packagerIdleMs, 60_000);
  const always = loadConfig({ AIRWAVE_PACKAGING: 'always' }, ['--packager-idle-seconds', '5']);
  assert.equal(always.packaging, 'always');
  assert.equal(always.packagerIdleMs, 5_000);
  assert.match(
    errorOf(() => loadConfig({ AIRWAVE_PACKAGING: 'lazy' }, [])),
    /AIRWAVE_PACKAGING/,
  );
});
