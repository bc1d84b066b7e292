/**
 * Records playback sessions for analytics, off the request path. A session opens and ends with
 * the viewer count of its content (`ViewerSessions` events: the same session the viewer count
 * and the playback gate use); the delivery layer reports the bytes it sent and who it sent them
 * to (`served`, a map lookup and two additions per request). Every `flushMs` the sessions are
 * written in one transaction with what they add to their stream's day: views, unique viewer
 * keys (a salted hash of IP and user agent, salt of the UTC day shared by every node through the
 * database, the address itself never stored), egress bytes, seconds watched and per-minute
 * concurrency. A crash loses at most one flush interval; a failed write is retried with the next.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { ViewerEvent, ViewerSessions } from '@airwave/media';
import { secondsByDay, utcDay } from './utc-day.js';
import type {
  AnalyticsBatch,
  ConcurrencySample,
  DailyDelta,
  SessionRow,
  ViewerAnalyticsStore,
} from './viewer-analytics.store.js';

/** Kinds of content a session plays (spec §2: `contentType`). */
export type ContentType = 'live' | 'dvr' | 'clip' | 'vod';

/** What a session plays. */
export interface ContentRef {
  /** Stream UUID the content belongs to (the analytics roll-up's key); null when it has none. */
  readonly streamId: string | null;
  readonly contentType: ContentType;
  /** The playback id viewers ask for. */
  readonly contentId: string;
}

/** Who a response was sent to. */
export interface ViewerClient {
  readonly ip: string;
  readonly userAgent: string | undefined;
}

/** Minimal logger. */
interface Log {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What the recorder needs. */
export interface SessionRecorderOptions {
  readonly store: ViewerAnalyticsStore;
  readonly nodeId: string;
  /** How often sessions are written. */
  readonly flushMs: number;
  readonly log: Log;
  readonly now?: () => number;
  /** Open sessions no node has seen for this long are closed as abandoned (default 5 min). */
  readonly abandonAfterMs?: number;
}

/** Ended sessions kept while the database cannot be written; past it the oldest are dropped. */
export const MAX_PENDING_ENDED = 50_000;
/** How often abandoned sessions are closed and old salts pruned. */
const HOUSEKEEPING_MS = 60_000;
const DAY_MS = 86_400_000;

interface Entry {
  readonly id: string;
  readonly content: ContentRef;
  readonly sessionId: string;
  protocol: string;
  readonly startedAt: number;
  lastSeenAt: number;
  endedAt: number | undefined;
  /** Bytes sent so far, and how many of them are written. */
  bytes: number;
  flushedBytes: number;
  /** Time watched is written up to here. */
  countedUntil: number;
  /** Until the viewer key is computed (at the first flush): the client it is computed from. */
  client: ViewerClient | undefined;
  viewerKey: string | undefined;
  /** The view and the unique viewer are written. */
  counted: boolean;
}

/** Records playback sessions and writes them in batches. */
export class ViewerSessionRecorder {
  private readonly byContent = new Map<string, Map<string, Entry>>();
  private readonly ended: Entry[] = [];
  private readonly salts = new Map<string, Promise<string>>();
  private readonly egress = new Map<string, number>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private lastHousekeeping = 0;
  private droppedEnded = 0;

  constructor(private readonly options: SessionRecorderOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Records the sessions of `content` as `sessions` opens and ends them; returns the stop function. */
  follow(content: ContentRef, sessions: ViewerSessions): () => void {
    return sessions.subscribe((event: ViewerEvent) => {
      const at = event.at.getTime();
      if (event.type === 'connect') {
        const open = this.sessionsOf(content.contentId);
        if (!open.has(event.sessionId)) {
          open.set(event.sessionId, newEntry(content, event.sessionId, event.protocol, at));
        }
        return;
      }
      const open = this.byContent.get(content.contentId);
      const entry = open?.get(event.sessionId);
      if (!open || !entry) {
        return;
      }
      open.delete(event.sessionId);
      entry.endedAt = Math.max(at, entry.startedAt);
      this.pushEnded(entry);
      if (open.size === 0) {
        this.byContent.delete(content.contentId);
      }
    });
  }

  /**
   * The delivery layer sent `bytes` of `contentId` to a viewer session (call once per response,
   * or per chunk of a long-lived one). Cheap: a lookup and two additions.
   */
  served(contentId: string, sessionId: string, protocol: string, bytes: number, client: ViewerClient): void {
    this.egress.set(protocol, (this.egress.get(protocol) ?? 0) + bytes);
    const entry = this.byContent.get(contentId)?.get(sessionId);
    if (!entry) {
      return;
    }
    entry.bytes += bytes;
    entry.lastSeenAt = this.now();
    if (entry.viewerKey === undefined && entry.client === undefined) {
      entry.client = client;
    }
  }

  /** Bytes sent to viewers by protocol since start (for `/metrics`). */
  egressByProtocol(): ReadonlyMap<string, number> {
    return this.egress;
  }

  /** Sessions open now. */
  get openSessions(): number {
    let total = 0;
    for (const sessions of this.byContent.values()) {
      total += sessions.size;
    }
    return total;
  }

  /** Starts the periodic flush. */
  start(): void {
    this.timer ??= setInterval(() => {
      void this.flush();
    }, this.options.flushMs);
    this.timer.unref();
  }

  /** Stops the periodic flush and writes what is left (sessions still open stay open). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Writes everything recorded since the last flush; a failure is logged and retried next time. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    const now = this.now();
    const open: Entry[] = [];
    for (const sessions of this.byContent.values()) {
      open.push(...sessions.values());
    }
    const endedCount = this.ended.length;
    const entries = [...this.ended, ...open];
    try {
      for (const entry of entries) {
        if (entry.viewerKey === undefined) {
          entry.viewerKey = await this.viewerKey(entry);
          entry.client = undefined;
        }
      }
      // What this batch writes: what arrives while it is written goes with the next one.
      const written = entries.map((entry) => ({ entry, bytes: entry.bytes, until: entry.endedAt ?? now }));
      const batch = this.batch(entries, open, now);
      if (batch.sessions.length > 0 || batch.concurrency.length > 0) {
        await this.options.store.write(batch);
      }
      for (const { entry, bytes, until } of written) {
        entry.flushedBytes = bytes;
        entry.countedUntil = Math.max(entry.countedUntil, until);
        entry.counted = true;
      }
      this.ended.splice(0, endedCount);
      await this.housekeeping(now);
    } catch (error) {
      this.options.log.error({ err: error, sessions: entries.length }, 'could not write viewer analytics; retrying');
    }
  }

  private batch(entries: readonly Entry[], open: readonly Entry[], now: number): AnalyticsBatch {
    const sessions: SessionRow[] = [];
    const daily = new Map<string, DailyDelta>();
    const viewers: { streamId: string; day: string; viewerKey: string }[] = [];
    const deltaOf = (streamId: string, day: string): DailyDelta => {
      const key = `${streamId}|${day}`;
      let delta = daily.get(key);
      if (!delta) {
        delta = { streamId, day, views: 0, egressBytes: 0, viewerSeconds: 0 };
        daily.set(key, delta);
      }
      return delta;
    };
    const today = utcDay(now);
    for (const entry of entries) {
      const changed = !entry.counted || entry.bytes !== entry.flushedBytes || entry.endedAt !== undefined;
      const watchedUntil = entry.endedAt ?? now;
      if (changed || watchedUntil > entry.countedUntil) {
        sessions.push(rowOf(entry, this.options.nodeId));
      }
      const streamId = entry.content.streamId;
      if (streamId === null) {
        continue;
      }
      if (!entry.counted) {
        const day = utcDay(entry.startedAt);
        deltaOf(streamId, day).views++;
        viewers.push({ streamId, day, viewerKey: entry.viewerKey as string });
      }
      if (entry.bytes > entry.flushedBytes) {
        deltaOf(streamId, today).egressBytes += entry.bytes - entry.flushedBytes;
      }
      for (const [day, seconds] of secondsByDay(entry.countedUntil, watchedUntil)) {
        deltaOf(streamId, day).viewerSeconds += seconds;
      }
    }
    const concurrent = new Map<string, number>();
    for (const entry of open) {
      if (entry.content.streamId !== null) {
        concurrent.set(entry.content.streamId, (concurrent.get(entry.content.streamId) ?? 0) + 1);
      }
    }
    const minute = new Date(Math.floor(now / 60_000) * 60_000);
    const concurrency: ConcurrencySample[] = [...concurrent].map(([streamId, count]) => ({
      streamId,
      minute,
      day: today,
      viewers: count,
    }));
    return { nodeId: this.options.nodeId, sessions, daily: [...daily.values()], viewers, concurrency };
  }

  private async housekeeping(now: number): Promise<void> {
    if (now - this.lastHousekeeping < HOUSEKEEPING_MS) {
      return;
    }
    this.lastHousekeeping = now;
    const closed = await this.options.store.closeAbandoned(new Date(now - (this.options.abandonAfterMs ?? 300_000)));
    if (closed > 0) {
      this.options.log.info({ sessions: closed }, 'viewer sessions abandoned by a stopped node closed');
    }
    await this.options.store.prune(utcDay(now - 2 * DAY_MS), new Date(now - 2 * DAY_MS));
    for (const day of this.salts.keys()) {
      if (day < utcDay(now - DAY_MS)) {
        this.salts.delete(day);
      }
    }
  }

  /** HMAC-SHA256 of IP and user agent under the salt of the session's first day. */
  private async viewerKey(entry: Entry): Promise<string> {
    const day = utcDay(entry.startedAt);
    let salt = this.salts.get(day);
    if (!salt) {
      salt = this.options.store.salt(day, randomBytes(32).toString('base64url'));
      this.salts.set(day, salt);
      salt.catch(() => this.salts.delete(day));
    }
    const client = entry.client;
    const identity = client ? `${client.ip}\n${client.userAgent ?? ''}` : `session\n${entry.sessionId}`;
    return createHmac('sha256', await salt)
      .update(identity)
      .digest('base64url')
      .slice(0, 22);
  }

  private sessionsOf(contentId: string): Map<string, Entry> {
    let sessions = this.byContent.get(contentId);
    if (!sessions) {
      sessions = new Map();
      this.byContent.set(contentId, sessions);
    }
    return sessions;
  }

  private pushEnded(entry: Entry): void {
    this.ended.push(entry);
    if (this.ended.length > MAX_PENDING_ENDED) {
      this.ended.shift();
      this.droppedEnded++;
      if (this.droppedEnded % 1000 === 1) {
        this.options.log.error(
          { dropped: this.droppedEnded },
          'viewer analytics backlog full: oldest ended sessions dropped',
        );
      }
    }
  }
}

function newEntry(content: ContentRef, sessionId: string, protocol: string, at: number): Entry {
  return {
    id: randomUUID(),
    content,
    sessionId,
    protocol,
    startedAt: at,
    lastSeenAt: at,
    endedAt: undefined,
    bytes: 0,
    flushedBytes: 0,
    countedUntil: at,
    client: undefined,
    viewerKey: undefined,
    counted: false,
  };
}

function rowOf(entry: Entry, nodeId: string): SessionRow {
  return {
    id: entry.id,
    streamId: entry.content.streamId,
    contentType: entry.content.contentType,
    contentId: entry.content.contentId,
    nodeId,
    protocol: entry.protocol,
    viewerKey: entry.viewerKey as string,
    startedAt: new Date(entry.startedAt),
    lastSeenAt: new Date(Math.max(entry.lastSeenAt, entry.endedAt ?? 0)),
    endedAt: entry.endedAt === undefined ? null : new Date(entry.endedAt),
    bytesSent: entry.bytes,
  };
}
