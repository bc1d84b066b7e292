import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { send } from './play-response.js';

const PLAYLIST = '#EXTM3U\n#EXT-X-VERSION:9\n';
const HEADERS = { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'no-store' };

/** One parsed HTTP/1.1 response: status, fields (lower-case names) and body. */
interface Answer {
  readonly status: number;
  readonly fields: Map<string, string>;
  readonly body: string;
}

/** Reads Content-Length framed responses off a raw connection. */
class RawClient {
  private buffered = '';
  private readonly waiting: ((answer: Answer) => void)[] = [];
  private readonly answers: Answer[] = [];
  readonly socket: Socket;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setEncoding('latin1');
    this.socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      this.parse();
    });
  }

  /** Sends raw request bytes. */
  write(text: string): void {
    this.socket.write(text);
  }

  /** The next complete response. */
  next(): Promise<Answer> {
    const ready = this.answers.shift();
    return ready ? Promise.resolve(ready) : new Promise((resolve) => this.waiting.push(resolve));
  }

  private parse(): void {
    for (;;) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        return;
      }
      const [statusLine = '', ...lines] = this.buffered.slice(0, end).split('\r\n');
      const fields = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        fields.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      const length = Number(fields.get('content-length') ?? 0);
      if (this.buffered.length < end + 4 + length) {
        return;
      }
      const answer = {
        status: Number(statusLine.split(' ')[1]),
        fields,
        body: this.buffered.slice(end + 4, end + 4 + length),
      };
      this.buffered = this.buffered.slice(end + 4 + length);
      const waiter = this.waiting.shift();
      if (waiter) {
        waiter(answer);
      } else {
        this.answers.push(answer);
      }
    }
  }
}

const GET = (path: string, extra = ''): string => `GET ${path} HTTP/1.1\r\nHost: test\r\n${extra}\r\n`;

describe('complete playback answers written in one piece', () => {
  let server: Server;
  let port = 0;
  let served = 0;
  /** Answers of requests to /held/*, released together by /release. */
  const held: ServerResponse[] = [];

  before(async () => {
    server = createServer({ keepAliveTimeout: 7000 }, (req, res) => {
      const id = `id-${++served}`;
      if (req.url?.startsWith('/held/')) {
        held.push(res);
        return;
      }
      if (req.url === '/release') {
        for (const each of held.splice(0)) {
          send({ res: each, id: `released-${id}`, head: false }, { status: 200, headers: HEADERS, body: PLAYLIST });
        }
      }
      if (req.url === '/preset') {
        res.setHeader('x-set-elsewhere', 'yes');
      }
      send({ res, id, head: req.method === 'HEAD' }, { status: 200, headers: HEADERS, body: PLAYLIST });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('answers with every field, the body and a fresh request id, and keeps the connection for the next request', async () => {
    const client = new RawClient(port);
    try {
      client.write(GET('/a'));
      const first = await client.next();
      client.write(GET('/b'));
      const second = await client.next();
      for (const answer of [first, second]) {
        assert.equal(answer.status, 200);
        assert.equal(answer.body, PLAYLIST);
        assert.equal(answer.fields.get('content-type'), 'application/vnd.apple.mpegurl');
        assert.equal(answer.fields.get('cache-control'), 'no-store');
        assert.equal(answer.fields.get('access-control-allow-origin'), '*');
        assert.equal(answer.fields.get('content-length'), String(Buffer.byteLength(PLAYLIST)));
        assert.equal(answer.fields.get('connection'), 'keep-alive');
        assert.equal(answer.fields.get('keep-alive'), 'timeout=7');
        assert.ok(!Number.isNaN(Date.parse(answer.fields.get('date') ?? '')));
      }
      assert.notEqual(first.fields.get('x-request-id'), second.fields.get('x-request-id'));
    } finally {
      client.socket.destroy();
    }
  });

  it('answers pipelined requests in order', async () => {
    const client = new RawClient(port);
    try {
      client.write(`${GET('/one')}${GET('/two')}${GET('/three')}`);
      const ids = [];
      for (let i = 0; i < 3; i++) {
        const answer = await client.next();
        assert.equal(answer.body, PLAYLIST);
        ids.push(Number(answer.fields.get('x-request-id')?.slice('id-'.length)));
      }
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
    } finally {
      client.socket.destroy();
    }
  });

  it('releases many held requests at once, each on its own connection', async () => {
    const clients = Array.from({ length: 20 }, () => new RawClient(port));
    try {
      for (const client of clients) {
        client.write(GET('/held/x'));
      }
      while (held.length < clients.length) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const releaser = new RawClient(port);
      releaser.write(GET('/release'));
      await releaser.next();
      releaser.socket.destroy();
      for (const client of clients) {
        const answer = await client.next();
        assert.equal(answer.body, PLAYLIST);
        assert.match(answer.fields.get('x-request-id') ?? '', /^released-/);
        client.write(GET('/again'));
        assert.equal((await client.next()).body, PLAYLIST, 'the connection serves its next request');
      }
    } finally {
      for (const client of clients) {
        client.socket.destroy();
      }
    }
  });

  it('closes after answering a request that asked to close, and answers HEAD without a body', async () => {
    const client = new RawClient(port);
    try {
      client.write(GET('/head', '').replace('GET', 'HEAD'));
      const head = await new Promise<string>((resolve) => {
        let text = '';
        client.socket.removeAllListeners('data');
        client.socket.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('\r\n\r\n')) {
            resolve(text);
          }
        });
      });
      assert.match(head, /content-length: 25/i);
      assert.ok(head.endsWith('\r\n\r\n'), 'no body after the head');
    } finally {
      client.socket.destroy();
    }
    const closing = new RawClient(port);
    const closed = new Promise<void>((resolve) => closing.socket.once('end', () => resolve()));
    closing.write(GET('/close', 'Connection: close\r\n'));
    const answer = await closing.next();
    assert.equal(answer.body, PLAYLIST);
    assert.equal(answer.fields.get('connection'), 'close');
    await closed;
  });

  it('keeps headers another part of the server set on the response', async () => {
    const client = new RawClient(port);
    try {
      client.write(GET('/preset'));
      const answer = await client.next();
      assert.equal(answer.fields.get('x-set-elsewhere'), 'yes');
      assert.equal(answer.body, PLAYLIST);
    } finally {
      client.socket.destroy();
    }
  });
});
