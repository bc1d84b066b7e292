/**
 * The guarded HTTP relay in front of the ffmpeg children that read HTTP(S) sources (HLS
 * playlists and segments, MPEG-TS / Matroska / WebM files): ffmpeg only ever connects to this
 * relay on loopback, and the relay fetches upstream through `guardedGet` — every host, every
 * redirect and every URI inside a playlist is resolved and checked, and the connection goes to
 * the checked address. Playlists are rewritten so that each URI they name comes back through the
 * relay. Each pull attempt has its own unguessable token; requests without a live token are 404.
 * An ended playlist leaves out what earlier attempts of the pull delivered (playlist-trim.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../../ports.js';
import { type PullAddressGuard, PullRefusedError } from './address-guard.js';
import { guardedGet } from './guarded-get.js';
import { type HlsHistory, playlistKey } from './hls-history.js';
import { isPlaylist, MAX_PLAYLIST_BYTES, rewritePlaylist } from './playlist-rewrite.js';
import { type ListedSegment, trimDelivered } from './playlist-trim.js';
import { redactUri } from './redact.js';

/** What one attempt gives the relay. */
export interface RelayHooks {
  readonly guard: PullAddressGuard;
  /** An upstream URI was refused (the attempt should end with this). */
  refused(error: PullRefusedError): void;
  /** The first upstream response came from this address. */
  resolved(address: string): void;
  /** What the pull's attempts delivered (HLS); read as it was when the attempt opened. */
  readonly history?: HlsHistory;
  /** An ended playlist listed nothing that was not delivered before (the attempt should end). */
  drained?(): void;
}

interface RelayEntry extends RelayHooks {
  reported: boolean;
  /** The last segment of each playlist delivered before this attempt. */
  readonly delivered: ReadonlyMap<string, ListedSegment>;
}

/** One attempt's view of the relay. */
export interface RelaySession {
  /** The relay URL ffmpeg reads for an upstream URL. */
  url(upstream: URL): string;
  /** Forgets the token: later requests with it are refused. */
  close(): void;
}

const PLAYLIST_TYPES = ['mpegurl', 'x-mpegurl', 'vnd.apple.mpegurl'];
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];
const USER_AGENT = 'Airwave-pull';

/** The loopback HTTP relay shared by every pull attempt of a node. */
export class HttpRelay {
  private readonly sessions = new Map<string, RelayEntry>();
  private port = 0;

  private constructor(
    private readonly server: Server,
    private readonly log: Logger,
  ) {}

  /** Starts the relay on 127.0.0.1 and an ephemeral port. */
  static async start(log: Logger): Promise<HttpRelay> {
    let relay: HttpRelay | undefined;
    const server = createServer((req, res) => {
      relay?.handle(req, res).catch((error: unknown) => {
        log.error({ err: error }, 'pull relay request failed');
        if (!res.headersSent) {
          res.writeHead(500).end();
        } else {
          res.destroy();
        }
      });
    });
    relay = new HttpRelay(server, log);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    relay.port = typeof address === 'object' && address ? address.port : 0;
    return relay;
  }

  /** Registers an attempt. */
  open(hooks: RelayHooks): RelaySession {
    const token = randomBytes(16).toString('base64url');
    this.sessions.set(token, { ...hooks, reported: false, delivered: hooks.history?.snapshot() ?? new Map() });
    return {
      url: (upstream) => this.relayUrl(token, upstream),
      close: () => {
        this.sessions.delete(token);
      },
    };
  }

  /** `text` (an ffmpeg message) with this relay's URLs replaced by the redacted upstream URIs they stand for. */
  unrelay(text: string): string {
    const pattern = new RegExp(`http://127\\.0\\.0\\.1:${this.port}/[A-Za-z0-9_-]+/([A-Za-z0-9_-]+)/[^\\s'"]*`, 'g');
    return text.replace(pattern, (_match, encoded: string) =>
      redactUri(Buffer.from(encoded, 'base64url').toString('utf8')),
    );
  }

  /** Stops the relay. */
  async close(): Promise<void> {
    this.sessions.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relayUrl(token: string, upstream: URL): string {
    const name =
      upstream.pathname
        .split('/')
        .pop()
        ?.replace(/[^A-Za-z0-9._-]/g, '') || 'source';
    return `http://127.0.0.1:${this.port}/${token}/${Buffer.from(upstream.href).toString('base64url')}/${name}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [, token = '', encoded = ''] = (req.url ?? '').split('/');
    const session = this.sessions.get(token);
    let upstream: URL | undefined;
    try {
      upstream = new URL(Buffer.from(encoded, 'base64url').toString('utf8'));
    } catch {
      upstream = undefined;
    }
    if (!session || !upstream || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    try {
      const range = req.headers.range;
      const fetched = await guardedGet(upstream, {
        guard: session.guard,
        headers: { 'user-agent': USER_AGENT, ...(range ? { range } : {}) },
        signal: abort.signal,
      });
      if (!session.reported) {
        session.reported = true;
        session.resolved(fetched.address);
      }
      const { response } = fetched;
      const type = String(response.headers['content-type'] ?? '').toLowerCase();
      const status = response.statusCode ?? 502;
      const playlistish =
        PLAYLIST_TYPES.some((playlist) => type.includes(playlist)) || /\.m3u8?$/i.test(fetched.url.pathname);
      if (status === 200 && playlistish) {
        await this.playlist(session, token, fetched.url, response, res, req.method === 'HEAD');
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of PASSED_HEADERS) {
        const value = response.headers[name];
        if (typeof value === 'string') {
          headers[name] = value;
        }
      }
      res.writeHead(status, headers);
      if (req.method === 'HEAD') {
        response.destroy();
        res.end();
        return;
      }
      if (status === 200 || status === 206) {
        session.history?.fetched(upstream.href);
      }
      response.pipe(res);
      response.on('error', () => res.destroy());
    } catch (error) {
      if (error instanceof PullRefusedError) {
        session.refused(error);
        res.writeHead(403).end();
        return;
      }
      if (!abort.signal.aborted) {
        this.log.debug({ err: error, host: upstream.hostname }, 'pull relay: upstream request failed');
      }
      if (!res.headersSent) {
        res.writeHead(502).end();
      }
    }
  }

  private async playlist(
    session: RelayEntry,
    token: string,
    base: URL,
    response: IncomingMessage,
    res: ServerResponse,
    head: boolean,
  ): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > MAX_PLAYLIST_BYTES) {
        response.destroy();
        throw new PullRefusedError('blocked_uri', `a playlist larger than ${MAX_PLAYLIST_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (!isPlaylist(text)) {
      throw new PullRefusedError(
        'blocked_uri',
        `${base.pathname.split('/').pop() ?? 'the source'} is not an HLS playlist`,
      );
    }
    const key = playlistKey(base);
    const trimmed = trimDelivered(text, base, session.delivered.get(key));
    session.history?.list(key, trimmed.segments);
    if (trimmed.drained) {
      session.drained?.();
    }
    const rewritten = rewritePlaylist(trimmed.text, base, (absolute) => this.relayUrl(token, absolute));
    // Every host a playlist names is checked now; each fetch checks again at its own connect.
    for (const host of rewritten.hosts) {
      await session.guard.resolve(host);
    }
    const body = Buffer.from(rewritten.text, 'utf8');
    res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'content-length': body.byteLength });
    res.end(head ? undefined : body);
  }
}
