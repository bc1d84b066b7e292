import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  callPlaybackWebhook,
  WEBHOOK_USER_AGENT,
  type WebhookRequestBody,
  type WebhookTarget,
} from './webhook-client.js';

const SECRET = 'a-webhook-secret-of-some-length';

/** A customer's webhook: checks the signature, then answers by the path. */
function hookServer() {
  const seen: { path: string; body: WebhookRequestBody; userAgent: string | undefined; signatureOk: boolean }[] = [];
  const hung: ServerResponse[] = [];
  const trickled: Promise<void>[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`);
      const given = Buffer.from(String(request.headers['x-airwave-signature'] ?? ''));
      const signatureOk = given.length === expected.length && timingSafeEqual(given, expected);
      const path = request.url ?? '';
      seen.push({
        path,
        body: JSON.parse(raw.toString('utf8')),
        userAgent: request.headers['user-agent'],
        signatureOk,
      });
      if (!signatureOk) {
        response.writeHead(401).end('bad signature');
      } else if (path === '/allow') {
        response.writeHead(200).end('ok');
      } else if (path === '/deny') {
        response.writeHead(403).end('no');
      } else if (path === '/big') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(Buffer.alloc(1024 * 1024, 0x61));
      } else if (path === '/trickle') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('a');
        trickled.push(new Promise((resolve) => request.socket.once('close', () => resolve())));
      } else if (path === '/redirect') {
        response.writeHead(302, { location: '/allow' }).end();
      } else {
        hung.push(response);
      }
    });
  });
  return { server, seen, hung, trickled };
}

function body(sessionId = 'session-1'): WebhookRequestBody {
  return {
    playbackId: 'pb-1',
    streamId: '00000000-0000-4000-8000-000000000001',
    viewerIp: '203.0.113.9',
    requestUrl: '/play/pb-1/hls/index.m3u8',
    protocol: 'hls',
    sessionId,
    timestamp: new Date().toISOString(),
  };
}

describe('callPlaybackWebhook against a real local HTTP server', () => {
  const hook = hookServer();
  let base = '';
  const allowPrivate = { allowPrivate: true };
  const target = (path: string, timeoutMs = 5_000): WebhookTarget => ({
    url: `${base}${path}`,
    secret: SECRET,
    timeoutMs,
  });

  before(async () => {
    await new Promise<void>((resolve) => hook.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(hook.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const response of hook.hung) {
      response.destroy();
    }
    hook.server.closeAllConnections();
    await new Promise<void>((resolve) => hook.server.close(() => resolve()));
  });

  it('allows on 200, with a body and HMAC signature the receiver verifies', async () => {
    const outcome = await callPlaybackWebhook(target('/allow'), body(), allowPrivate);
    assert.equal(outcome.allowed, true);
    assert.equal(outcome.reason, 'webhook-allow');
    assert.equal(outcome.status, 200);
    const last = hook.seen.at(-1);
    assert.ok(last);
    assert.equal(last.signatureOk, true);
    assert.equal(last.userAgent, WEBHOOK_USER_AGENT);
    assert.deepEqual(Object.keys(last.body).sort(), [
      'playbackId',
      'protocol',
      'requestUrl',
      'sessionId',
      'streamId',
      'timestamp',
      'viewerIp',
    ]);
    assert.equal(last.body.viewerIp, '203.0.113.9');
  });

  it('denies on 403 with reason webhook-deny-403, and on a wrongly signed call (the receiver answers 401)', async () => {
    const outcome = await callPlaybackWebhook(target('/deny'), body(), allowPrivate);
    assert.equal(outcome.allowed, false);
    assert.equal(outcome.reason, 'webhook-deny-403');
    assert.equal(outcome.status, 403);
    const forged = await callPlaybackWebhook(
      { ...target('/allow'), secret: 'another-secret-entirely' },
      body(),
      allowPrivate,
    );
    assert.equal(forged.reason, 'webhook-deny-401');
  });

  it('does not follow redirects (302 denies)', async () => {
    const outcome = await callPlaybackWebhook(target('/redirect'), body(), allowPrivate);
    assert.equal(outcome.reason, 'webhook-deny-302');
  });

  it('allows a 200 with a large body without reading all of it', async () => {
    const outcome = await callPlaybackWebhook(target('/big'), body(), allowPrivate);
    assert.equal(outcome.allowed, true);
  });

  it('decides a 200 whose body never ends, and closes the connection at the deadline', {
    timeout: 20_000,
  }, async () => {
    const outcome = await callPlaybackWebhook(target('/trickle', 300), body(), allowPrivate);
    assert.equal(outcome.allowed, true);
    const closed = hook.trickled.at(-1);
    assert.ok(closed, 'the hook saw the call');
    await closed;
  });

  it('denies with webhook-timeout when the hook does not answer within timeoutMs', async () => {
    const outcome = await callPlaybackWebhook(target('/hang', 150), body(), allowPrivate);
    assert.equal(outcome.allowed, false);
    assert.equal(outcome.reason, 'webhook-timeout');
    assert.equal(outcome.status, null);
  });

  it('denies with webhook-network when nothing listens on the port', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const outcome = await callPlaybackWebhook(
      { url: `http://127.0.0.1:${port}/allow`, secret: SECRET, timeoutMs: 2_000 },
      body(),
      allowPrivate,
    );
    assert.equal(outcome.allowed, false);
    assert.equal(outcome.reason, 'webhook-network');
  });

  it('refuses loopback literals and names resolving to loopback unless private webhooks are allowed (webhook-blocked-ssrf)', async () => {
    const calls = hook.seen.length;
    const literal = await callPlaybackWebhook(target('/allow'), body(), { allowPrivate: false });
    assert.equal(literal.reason, 'webhook-blocked-ssrf');
    const port = new URL(base).port;
    const rebinding = { allowPrivate: false, resolve: async () => ['127.0.0.1'] };
    const named = await callPlaybackWebhook(
      { url: `http://hook.example.test:${port}/allow`, secret: SECRET, timeoutMs: 2_000 },
      body(),
      rebinding,
    );
    assert.equal(named.reason, 'webhook-blocked-ssrf');
    assert.equal(hook.seen.length, calls, 'no request reached the hook');
    const allowedName = await callPlaybackWebhook(
      { url: `http://hook.example.test:${port}/allow`, secret: SECRET, timeoutMs: 2_000 },
      body(),
      { allowPrivate: true, resolve: async () => ['127.0.0.1'] },
    );
    assert.equal(allowedName.reason, 'webhook-allow');
  });
});
