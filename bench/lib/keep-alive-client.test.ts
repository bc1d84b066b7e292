import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { test } from 'node:test';
import { KeepAliveConnection, readHead } from './keep-alive-client.js';

test('KeepAliveConnection reads Content-Length bodies over one connection and reconnects when it closes', async () => {
  const big = Buffer.alloc(300_000, 7);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    sockets.add(req.socket);
    if (req.url === '/big') {
      res.writeHead(200, { 'content-length': big.length }).end(big);
    } else if (req.url === '/close') {
      res.writeHead(200, { 'content-length': 2, connection: 'close' }).end('ok');
    } else {
      res.writeHead(404, { 'content-length': 4 }).end('nope');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const connection = new KeepAliveConnection('127.0.0.1', port);
  try {
    const first = await connection.get('/big', 1024);
    assert.equal(first.status, 200);
    assert.equal(first.length, big.length);
    assert.equal(first.body.length, 1024, 'only the start of the body is kept');
    const missing = await connection.get('/missing');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.toString(), 'nope');
    assert.equal(sockets.size, 1, 'both requests used one connection');
    assert.equal((await connection.get('/close')).body.toString(), 'ok');
    assert.equal((await connection.get('/big')).body.length, big.length);
    assert.equal(sockets.size, 2, 'a new connection after the server closed the first');
  } finally {
    connection.close();
    server.close();
  }
});

test('readHead finds the status, Content-Length and Connection: close in any letter case', () => {
  const read = (text: string): { status: number; expected: number; last: boolean } => {
    const bytes = Buffer.from(text, 'latin1');
    const into = { status: 0, expected: 0, last: false };
    readHead(bytes, bytes.indexOf('\r\n\r\n'), into);
    return into;
  };
  assert.deepEqual(read('HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nContent-Length: 197632\r\n\r\n'), {
    status: 200,
    expected: 197632,
    last: false,
  });
  assert.deepEqual(read('HTTP/1.1 404 Not Found\r\ncontent-length:4\r\nCONNECTION: Close\r\n\r\nnope'), {
    status: 404,
    expected: 4,
    last: true,
  });
  assert.deepEqual(read('HTTP/1.1 503 Busy\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n'), {
    status: 503,
    expected: -1,
    last: false,
  });
});
