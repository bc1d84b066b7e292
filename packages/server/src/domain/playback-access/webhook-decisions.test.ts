import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { callPlaybackWebhook, type WebhookOutcome } from './webhook-client.js';
import { ALLOW_TTL_MS, DENY_TTL_MS, WebhookDecisionCache } from './webhook-decisions.js';

const SECRET = 'decision-cache-secret-0123456789';

describe('WebhookDecisionCache with the real webhook client', () => {
  const calls: string[] = [];
  const hung: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { sessionId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sessionId: string };
      calls.push(sessionId);
      if (sessionId.startsWith('slow')) {
        hung.push(response);
      } else if (sessionId.startsWith('deny')) {
        response.writeHead(403).end();
      } else {
        response.writeHead(200).end();
      }
    });
  });
  let url = '';
  let clock = 1_000_000;
  const cache = new WebhookDecisionCache(() => clock);
  const ask = (sessionId: string, version = 1, timeoutMs = 5_000): Promise<WebhookOutcome> =>
    cache.decide('pb-1', sessionId, version, () =>
      callPlaybackWebhook(
        { url, secret: SECRET, timeoutMs },
        {
          playbackId: 'pb-1',
          streamId: 's',
          viewerIp: '127.0.0.1',
          requestUrl: '/play/pb-1/hls/index.m3u8',
          protocol: 'hls',
          sessionId,
          timestamp: new Date().toISOString(),
        },
        { allowPrivate: true },
      ),
    );
  const count = (sessionId: string) => calls.filter((id) => id === sessionId).length;

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    for (const response of hung) {
      response.destroy();
    }
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('makes one call for concurrent requests of one session and reuses an allow until its TTL', async () => {
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => ask('viewer-a')));
    assert.ok(outcomes.every((outcome) => outcome.allowed));
    assert.equal(count('viewer-a'), 1);
    clock += ALLOW_TTL_MS - 1;
    assert.equal((await ask('viewer-a')).allowed, true);
    assert.equal(count('viewer-a'), 1);
    clock += 2;
    await ask('viewer-a');
    assert.equal(count('viewer-a'), 2);
  });

  it('keeps a denial for the shorter deny TTL', async () => {
    assert.equal((await ask('deny-b')).reason, 'webhook-deny-403');
    assert.equal((await ask('deny-b')).reason, 'webhook-deny-403');
    assert.equal(count('deny-b'), 1);
    clock += DENY_TTL_MS;
    await ask('deny-b');
    assert.equal(count('deny-b'), 2);
  });

  it('answers another viewer while one viewer waits on a hung hook, and times the hung one out', async () => {
    const slow = ask('slow-c', 1, 1_000);
    let slowDone = false;
    void slow.then(() => {
      slowDone = true;
    });
    const other = await ask('viewer-d');
    assert.equal(other.allowed, true);
    assert.equal(slowDone, false, 'the hung viewer is still waiting');
    const timedOut = await slow;
    assert.equal(timedOut.reason, 'webhook-timeout');
    assert.equal(count('slow-c'), 1);
  });

  it('forgets decisions at once when the policy changes (clear, or a new version)', async () => {
    await ask('viewer-e');
    cache.clear('pb-1');
    await ask('viewer-e');
    assert.equal(count('viewer-e'), 2);
    await ask('viewer-e', 2);
    assert.equal(count('viewer-e'), 3);
    await ask('viewer-e', 2);
    assert.equal(count('viewer-e'), 3);
  });
});
