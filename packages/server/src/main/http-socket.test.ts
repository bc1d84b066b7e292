import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listenOnSocketPath, peerAddress, SOCKET_PEER_ADDRESS } from './http-socket.js';

/** GET `path` over the Unix socket `socketPath`, twice on one kept-alive connection; the bodies. */
async function getTwice(socketPath: string, path: string): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<string>((resolve, reject) => {
      const req = request({ socketPath, path, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
  try {
    return [await once(), await once()];
  } finally {
    agent.destroy();
  }
}

describe('the HTTP API on a Unix socket (AIRWAVE_HTTP_SOCKET)', () => {
  let dir = '';
  let http: Server;
  const connections = new Set<unknown>();

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'airwave-http-socket-'));
    http = createServer((req, res) => {
      connections.add(req.socket);
      res.end(`${req.url} from ${peerAddress(req.socket)}`);
    });
  });
  after(() => {
    http.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands its connections to the HTTP server, kept alive, with the loopback peer address', async () => {
    const path = join(dir, 'api.sock');
    const listener = await listenOnSocketPath(http, path);
    try {
      assert.deepEqual(await getTwice(path, '/play/x'), [
        `/play/x from ${SOCKET_PEER_ADDRESS}`,
        `/play/x from ${SOCKET_PEER_ADDRESS}`,
      ]);
      assert.equal(connections.size, 1, 'both requests came on one connection');
    } finally {
      await listener.close();
    }
    assert.equal(existsSync(path), false, 'closing removes the socket path');
  });

  it('replaces a socket file left by an earlier run, and refuses any other file', async () => {
    const path = join(dir, 'stale.sock');
    // A process that died leaves its socket file behind: listen again while the first listener's file is there.
    const first = await listenOnSocketPath(http, path);
    const second = await listenOnSocketPath(http, path);
    assert.deepEqual(await getTwice(path, '/again'), [
      `/again from ${SOCKET_PEER_ADDRESS}`,
      `/again from ${SOCKET_PEER_ADDRESS}`,
    ]);
    await second.close();
    await first.close();
    const file = join(dir, 'not-a-socket');
    writeFileSync(file, 'data');
    await assert.rejects(listenOnSocketPath(http, file), /exists and is not a socket/);
  });
});
