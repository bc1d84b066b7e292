/**
 * The dashboard routes on a real server with a small fake build folder: `/` and browser
 * navigations get index.html (no-cache, CSP), `/_app/*` is immutable and gzipped, and the API,
 * media, metrics and playground routes keep their own answers.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { dashboardRoutes } from './dashboard-routes.js';

describe('dashboard routes', () => {
  let app: FastifyInstance;
  let dir: string;
  const html = { accept: 'text/html,application/xhtml+xml' };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'airwave-dashboard-'));
    mkdirSync(join(dir, '_app'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Airwave</title><div id="root"></div>');
    writeFileSync(join(dir, '_app', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
    app = Fastify();
    app.get('/graphql/playground', async () => 'playground');
    app.get('/play/:id', async () => ({ play: true }));
    app.get('/metrics', async () => 'metrics');
    dashboardRoutes(dir)(app);
    await app.ready();
  });
  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('/ and unknown navigations answer index.html with no-cache and a same-origin CSP', async () => {
    for (const url of ['/', '/streams', '/streams/U3RyZWFtOjE', '/tokens?x=1']) {
      const response = await app.inject({ url, headers: html });
      assert.equal(response.statusCode, 200, url);
      assert.match(response.body, /<div id="root">/);
      assert.equal(response.headers['cache-control'], 'no-cache');
      assert.match(String(response.headers['content-security-policy']), /script-src 'self'/);
    }
  });

  test('hashed files are immutable and gzipped when accepted; unknown ones are 404', async () => {
    const plain = await app.inject({ url: '/_app/index-abc123.js' });
    assert.equal(plain.statusCode, 200);
    assert.match(String(plain.headers['cache-control']), /immutable/);
    assert.match(String(plain.headers['content-type']), /^text\/javascript/);
    assert.equal(plain.headers['content-encoding'], undefined);
    const gzip = await app.inject({ url: '/_app/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(gzip.rawPayload.length < plain.rawPayload.length / 4, 'the gzip body is smaller');
    assert.equal((await app.inject({ url: '/_app/missing.js', headers: html })).statusCode, 404);
  });

  test('other routes keep their answers; unknown API, media and non-HTML paths stay 404', async () => {
    assert.equal((await app.inject({ url: '/graphql/playground', headers: html })).body, 'playground');
    assert.equal((await app.inject({ url: '/metrics', headers: html })).body, 'metrics');
    assert.deepEqual((await app.inject({ url: '/play/abc', headers: html })).json(), { play: true });
    for (const url of ['/graphql/nope', '/play/abc/def/ghi', '/webrtc/x/y', '/assets/x/poster.jpg', '/metrics/x']) {
      assert.equal((await app.inject({ url, headers: html })).statusCode, 404, url);
    }
    assert.equal((await app.inject({ url: '/streams', headers: { accept: 'application/json' } })).statusCode, 404);
    assert.equal((await app.inject({ method: 'POST', url: '/streams', headers: html })).statusCode, 404);
  });
});
