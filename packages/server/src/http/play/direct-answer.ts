/**
 * Complete playback answers written to the connection in one piece (RFC 9112 §4 status line, §5
 * fields, §6.3 Content-Length framing; RFC 9110 §6.6.1 Date): a thousand LL-HLS viewers (or the
 * cache in front of this node, one upstream request per viewer) released by one new part get the
 * same playlist, so its response head — everything but the request id — is built once and each
 * answer is one `write` of head and body, skipping `ServerResponse`'s per-answer header
 * validation, head building, corking and write queue (ADR 0091). The response is then ended
 * without bytes, so node's HTTP server does its keep-alive bookkeeping (next request, timeouts)
 * as for any answer. Anything unusual (no socket, a pipelined request ahead of this one, a
 * connection that must close, headers set by someone else, a test's mock socket) falls back to
 * `ServerResponse`.
 */
import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** The fields of node's ServerResponse this writer reads or sets (node's _http_outgoing.js, _http_server.js). */
interface NodeResponse {
  _header: string | null;
  _headerSent: boolean;
  _keepAliveTimeout: number;
  maxRequestsOnConnectionReached: boolean;
}

/** The connection's current response (node's _http_server.js). */
interface NodeSocket {
  _httpMessage?: unknown;
}

/** A head built for one body: valid while the Date second, keep-alive timeout and headers match. */
interface BuiltHead {
  readonly headers: Readonly<Record<string, string>>;
  readonly date: string;
  readonly keepAliveMs: number;
  /** The head up to the request id's value; undefined when a field value is not fit to send. */
  readonly prefix: string | undefined;
}

const ID_FIELD = 'x-request-id: ';
const HEAD_END = '\r\n\r\n';

const heads = new WeakMap<Uint8Array, BuiltHead>();
let dateSecond = -1;
let dateText = '';

/** The IMF-fixdate of this second (RFC 9110 §5.6.7), as node writes it. */
function httpDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}

/**
 * Writes a complete 200 answer (`headers` in order but Content-Length, then `common` — a flat
 * [name, value, …] list the same for every answer — Content-Length, Date, keep-alive and
 * `x-request-id: id`, then `body`) straight to the connection and ends `res`; false (nothing
 * written) when the answer must go through `ServerResponse`. `text`, when given, is the body as
 * text (`body` is its UTF-8 encoding): head and text then go out as one string write.
 */
export function writeDirect(
  res: ServerResponse,
  headers: Readonly<Record<string, string>>,
  common: readonly string[],
  id: string,
  body: Uint8Array,
  text?: string,
): boolean {
  const node = res as unknown as NodeResponse;
  const socket = res.socket as (Socket & NodeSocket) | null;
  if (
    !(socket instanceof Socket) ||
    socket.destroyed ||
    !socket.writable ||
    socket._httpMessage !== res ||
    res.headersSent ||
    !res.shouldKeepAlive ||
    node.maxRequestsOnConnectionReached ||
    !res.sendDate ||
    typeof node._keepAliveTimeout !== 'number' ||
    res.getHeaderNames().length > 0
  ) {
    return false;
  }
  const prefix = headFor(headers, common, body, node._keepAliveTimeout);
  if (!prefix) {
    return false;
  }
  const head = `${prefix}${id}${HEAD_END}`;
  if (text !== undefined) {
    // One string write: node encodes it straight into the write request, no Buffer per answer.
    socket.write(`${head}${text}`, 'utf8');
  } else {
    socket.cork();
    socket.write(head, 'latin1');
    socket.write(body);
    socket.uncork();
  }
  // Ends the response without bytes: node then runs its keep-alive bookkeeping for this answer.
  res.statusCode = 200;
  node._header = head;
  node._headerSent = true;
  res.end();
  return true;
}

/**
 * A complete answer's fields as a flat [name, value, …] list: `headers` in order but their own
 * Content-Length, then `common`, then the Content-Length of a `length`-byte body.
 */
export function answerFields(
  headers: Readonly<Record<string, string>>,
  common: readonly string[],
  length: number,
): string[] {
  const fields: string[] = [];
  for (const name in headers) {
    if (name !== 'content-length') {
      fields.push(name, headers[name] as string);
    }
  }
  fields.push(...common, 'content-length', String(length));
  return fields;
}

/**
 * The head of `body`'s answer up to the request id's value, built once per body, second and
 * headers; undefined when a field value holds a character RFC 9110 §5.5 does not allow.
 */
function headFor(
  headers: Readonly<Record<string, string>>,
  common: readonly string[],
  body: Uint8Array,
  keepAliveMs: number,
): string | undefined {
  const date = httpDate();
  const known = heads.get(body);
  if (known && known.date === date && known.keepAliveMs === keepAliveMs && sameHeaders(known.headers, headers)) {
    return known.prefix;
  }
  const fields = answerFields(headers, common, body.byteLength);
  fields.push('Date', date, 'Connection', 'keep-alive');
  const seconds = Math.floor(keepAliveMs / 1000);
  if (seconds > 0) {
    fields.push('Keep-Alive', `timeout=${seconds}`);
  }
  let text = 'HTTP/1.1 200 OK\r\n';
  let fit = true;
  for (let i = 0; i < fields.length; i += 2) {
    const name = fields[i] as string;
    const value = fields[i + 1] as string;
    fit &&= TOKEN.test(name) && FIELD_VALUE.test(value);
    text += `${name}: ${value}\r\n`;
  }
  const prefix = fit ? `${text}${ID_FIELD}` : undefined;
  heads.set(body, { headers, date, keepAliveMs, prefix });
  return prefix;
}

/** A field name (RFC 9110 §5.1 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A field value sent as is (RFC 9110 §5.5; ASCII only, so its UTF-8 and latin1 bytes are the same). */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

function sameHeaders(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) {
    return true;
  }
  let count = 0;
  for (const name in b) {
    if (a[name] !== b[name]) {
      return false;
    }
    count++;
  }
  return Object.keys(a).length === count;
}
