import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { cacheWarmer } from './cache-warmer.js';

describe('cacheWarmer', () => {
  const asked: string[] = [];
  let server: Server;
  let base = '';

  before(async () => {
    server = createServer((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/never') {
        return;
      }
      res.statusCode = req.url === '/missing' ? 404 : 200;
      res.end('part bytes');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches a path through the cache once, however many answers wait for it', async () => {
    const failures: string[] = [];
    const warm = cacheWarmer(base, (path) => failures.push(path));
    await Promise.all([warm('/play/a/cmaf/video-part-1.m4s'), warm('/play/a/cmaf/video-part-1.m4s')]);
    await warm('/play/a/cmaf/video-part-1.m4s');
    assert.deepEqual(asked.splice(0), ['/play/a/cmaf/video-part-1.m4s']);
    assert.deepEqual(failures, []);
  });

  it('resolves when the cache refuses, errs or does not answer, and reports the failure', async () => {
    const failures: string[] = [];
    const warm = cacheWarmer(base, (path) => failures.push(path));
    await warm('/missing');
    await warm('/never');
    const refused = cacheWarmer('http://127.0.0.1:1', (path) => failures.push(path));
    await refused('/play/a/cmaf/video-part-2.m4s');
    assert.deepEqual(failures, ['/missing', '/play/a/cmaf/video-part-2.m4s'], 'one report per cache per minute');
  });
});
