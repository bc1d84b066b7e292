/**
 * A lean HTTP/1.1 client for load generation (RFC 9112: persistent connections, Content-Length
 * framed responses): one socket, one GET at a time. A thousand simulated players share the load
 * generator's one thread, where Node's http client (ClientRequest, Agent, IncomingMessage per
 * request) cost more than the server they measure; on the wire the requests are the same. Every
 * connection reads into one shared buffer (only the bytes kept are copied out), so hundreds of
 * megabytes a second of part bodies allocate nothing for the garbage collector. The response head
 * is read from its bytes (status, Content-Length, Connection: close), not decoded to a string and
 * matched: the load generator answers a thousand responses per part on one thread, and how soon it
 * sends each viewer's next request is part of what a burst through a cache measures (ADR 0079).
 */
import { connect, type Socket } from 'node:net';
import { wallNow } from './paced-publisher.js';

/** One response: status, (the start of) its body and when its last byte arrived (wall-clock ms). */
export interface Fetched {
  readonly status: number;
  /** The body, or only its first `keepBytes` when a limit was given. */
  readonly body: Buffer;
  /** Bytes received in all. */
  readonly length: number;
  readonly at: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = Buffer.from('content-length:');
const CONNECTION = Buffer.from('connection:');
const CLOSE = Buffer.from('close');
const LF = 0x0a;
/** ASCII `c`: the first letter of both header names looked for. */
const LOWER_C = 0x63;
/** What every connection reads into; each read is handled before the next one fills it again. */
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

/** The response being read. */
interface Pending {
  readonly keepBytes: number;
  readonly resolve: (fetched: Fetched) => void;
  readonly reject: (error: Error) => void;
  head: Buffer | undefined;
  status: number;
  /** Body bytes expected (Content-Length), once the head is read. */
  expected: number;
  /** The server closes the connection after this response (`Connection: close`). */
  last: boolean;
  received: number;
  readonly kept: Buffer[];
  keptBytes: number;
}

/** One keep-alive connection to an origin; reconnects after the server closed it. */
export class KeepAliveConnection {
  private socket: Socket | undefined;
  private pending: Pending | undefined;
  /** The request line's end and the headers, the same for every request. */
  private readonly requestTail: string;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {
    this.requestTail = ` HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`;
  }

  /** GET `path` (with its query), resolving once the whole body arrived; keeps about `keepBytes` of it. */
  get(path: string, keepBytes = Number.POSITIVE_INFINITY): Promise<Fetched> {
    if (this.pending) {
      return Promise.reject(new Error('one request at a time per connection'));
    }
    return new Promise((resolve, reject) => {
      this.pending = {
        keepBytes,
        resolve,
        reject,
        head: undefined,
        status: 0,
        expected: -1,
        last: false,
        received: 0,
        kept: [],
        keptBytes: 0,
      };
      this.open().write(`GET ${path}${this.requestTail}`);
    });
  }

  /** Closes the connection. */
  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private open(): Socket {
    if (this.socket && !this.socket.destroyed) {
      return this.socket;
    }
    const socket = connect({
      host: this.host,
      port: this.port,
      noDelay: true,
      onread: {
        buffer: READ_BUFFER,
        callback: (bytes: number, buffer: Uint8Array): boolean => {
          this.onData(buffer.subarray(0, bytes) as Buffer);
          return true;
        },
      },
    });
    const gone = (error?: Error): void => {
      if (this.socket === socket) {
        this.socket = undefined;
        this.fail(error ?? new Error('connection closed'));
      }
    };
    socket.on('error', gone);
    socket.on('close', () => gone());
    this.socket = socket;
    return socket;
  }

  /** Handles one read; `chunk` is only valid during the call (the shared buffer is reused). */
  private onData(chunk: Buffer): void {
    const pending = this.pending;
    if (!pending) {
      return;
    }
    let body = chunk;
    if (pending.expected < 0) {
      const head = pending.head ? Buffer.concat([pending.head, chunk]) : chunk;
      const end = head.indexOf(HEADER_END);
      if (end < 0) {
        pending.head = Buffer.from(head);
        return;
      }
      readHead(head, end, pending);
      if (pending.expected < 0) {
        this.fail(new Error(`response ${pending.status} without Content-Length`));
        this.close();
        return;
      }
      body = head.subarray(end + HEADER_END.length);
    }
    pending.received += body.length;
    if (pending.keptBytes < pending.keepBytes && body.length > 0) {
      const keep = Buffer.from(body.subarray(0, Math.min(body.length, pending.keepBytes - pending.keptBytes)));
      pending.kept.push(keep);
      pending.keptBytes += keep.length;
    }
    if (pending.received >= pending.expected) {
      this.pending = undefined;
      if (pending.last) {
        this.close();
      }
      pending.resolve({
        status: pending.status,
        body: pending.kept.length === 1 ? (pending.kept[0] as Buffer) : Buffer.concat(pending.kept),
        length: pending.received,
        at: wallNow(),
      });
    }
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }
}

/** Whether `bytes` has `lower` (lower-case ASCII) at `at`, before `end`, in any letter case. */
function hasAt(bytes: Uint8Array, at: number, end: number, lower: Uint8Array): boolean {
  if (end - at < lower.length) {
    return false;
  }
  for (let i = 0; i < lower.length; i++) {
    if (((bytes[at + i] as number) | 0x20) !== lower[i]) {
      return false;
    }
  }
  return true;
}

/**
 * Reads the status code, Content-Length (-1 when absent) and `Connection: close` of the response
 * head `bytes[0, end)` (RFC 9112 §4 status line, §6.3 message body length) into `into`.
 */
export function readHead(
  bytes: Uint8Array,
  end: number,
  into: { status: number; expected: number; last: boolean },
): void {
  into.status = ((bytes[9] ?? 0) - 48) * 100 + ((bytes[10] ?? 0) - 48) * 10 + ((bytes[11] ?? 0) - 48);
  into.expected = -1;
  into.last = false;
  let start = 0;
  while (start < end) {
    let next = start;
    while (next < end && bytes[next] !== LF) {
      next++;
    }
    next++;
    if (((bytes[start] ?? 0) | 0x20) === LOWER_C) {
      if (hasAt(bytes, start, next, CONTENT_LENGTH)) {
        into.expected = decimalIn(bytes, start + CONTENT_LENGTH.length, next);
      } else if (hasAt(bytes, start, next, CONNECTION)) {
        for (let at = start + CONNECTION.length; at < next && !into.last; at++) {
          into.last = hasAt(bytes, at, next, CLOSE);
        }
      }
    }
    start = next;
  }
}

/** The first run of decimal digits in `bytes[from, to)`, or -1 when there is none. */
function decimalIn(bytes: Uint8Array, from: number, to: number): number {
  let value = -1;
  for (let at = from; at < to; at++) {
    const digit = (bytes[at] ?? 0) - 48;
    if (digit >= 0 && digit <= 9) {
      value = (value < 0 ? 0 : value * 10) + digit;
    } else if (value >= 0) {
      break;
    }
  }
  return value;
}
