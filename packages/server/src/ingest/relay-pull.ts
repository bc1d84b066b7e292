/**
 * The edge's end of the Airwave relay (docs/relay-protocol.md): when a viewer asks this node
 * for a stream it does not hold, the node that ingests it is looked up in the shared database and
 * the stream is pulled from it (`GET /internal/relay/<streamId>` with a relay token) and published
 * into this node's hub, where every output serves it as if it were ingested here. One pull per
 * stream however many viewers ask; the first request waits until the origin's recent history
 * has arrived (so its playlist is full at once), at most `waitMs`; the pull ends `lingerMs` after
 * the stream's last viewer left or when the origin ends the stream. A connection that breaks
 * after the stream was relayed is made again with capped, jittered backoff (looking the origin up
 * again, as the encoder may have moved), while viewers here see the stream RECONNECTING and then
 * resume at a key frame; after `retryForMs` without a connection the stream ends here.
 * Relayed streams are not reported to the database (the origin reports them).
 */
import http from 'node:http';
import https from 'node:https';
import type { Hub, LiveStream, Logger, StreamLifecycleSink } from '@airwave/media';
import { RelayDecoder } from '@airwave/media/protocols/relay/relay-wire';
import { RelayIntoHub } from '@airwave/media/protocols/relay/to-stream';
import { signRelayToken } from '../auth/relay-token.js';
import { isStale } from '../domain/node-status/media-nodes.store.js';
import type { LiveContentRow } from '../domain/routing/live-content.store.js';
import type { RemoteStreams } from '../http/play/bring-here.js';

/** What the puller needs. */
export interface RelayPullOptions {
  readonly hub: Hub;
  /** This node's id (it signs its tokens with it, and never pulls from itself). */
  readonly nodeId: string;
  /** The stream with a playback id and its origin node. */
  readonly lookup: (playbackId: string) => Promise<LiveContentRow | undefined>;
  readonly key: string;
  readonly log: Logger;
  /** Pins the hub's clock to a relayed unit's arrival time (ReplayClock.pin of the hub's `now`). */
  readonly pinArrival: (at: number | undefined) => void;
  /** Stream UUIDs relayed here, to their tenant ids (shared with the lifecycle filter, viewer events and metrics). */
  readonly relayed: Map<string, string>;
  /** The deployment's time heartbeats are written in (NodeStatusService.now); default this machine's clock. */
  readonly now?: () => number;
  /** How long a first request waits for the origin's history (default 5 s). */
  readonly waitMs?: number;
  /** How long a pull stays after its last viewer left (default 5 s). */
  readonly lingerMs?: number;
  /** How long a lost relay keeps connecting again before the stream ends here (default 15 s). */
  readonly retryForMs?: number;
}

/** Negative lookups are remembered this long per playback id (unknown or offline ids cost no query each). */
const MISS_MS = 2000;
const MAX_MISSES = 10_000;
/** Backoff of a lost relay's reconnects: the first delay, the cap, and how long it keeps trying. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 4000;
const RETRY_FOR_MS = 15_000;

/** Relays streams from the nodes that ingest them. */
export class RelayPull implements RemoteStreams {
  private readonly pending = new Map<string, Promise<void>>();
  private readonly pulls = new Map<string, () => void>();
  private readonly misses = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: RelayPullOptions) {}

  /** Resolves once `playbackId` is live here (relayed), or at once when it is live nowhere else. */
  ensure(playbackId: string): Promise<void> {
    if (this.closed || this.options.hub.getByPlaybackId(playbackId)) {
      return Promise.resolve();
    }
    const known = this.pending.get(playbackId);
    if (known) {
      return known;
    }
    if ((this.misses.get(playbackId) ?? 0) > Date.now()) {
      return Promise.resolve();
    }
    const started = this.start(playbackId)
      .catch((error: unknown) => this.options.log.error({ err: error, playbackId }, 'relay lookup failed'))
      .finally(() => this.pending.delete(playbackId));
    this.pending.set(playbackId, started);
    return started;
  }

  /** Streams being relayed now. */
  get active(): number {
    return this.pulls.size;
  }

  /** Stops every pull (shutdown). */
  close(): void {
    this.closed = true;
    for (const stop of [...this.pulls.values()]) {
      stop();
    }
  }

  private miss(playbackId: string): void {
    if (this.misses.size >= MAX_MISSES) {
      this.misses.clear();
    }
    this.misses.set(playbackId, Date.now() + MISS_MS);
  }

  private async start(playbackId: string): Promise<void> {
    const row = await this.options.lookup(playbackId);
    const origin = row?.origin;
    const live = row?.status === 'LIVE' || row?.status === 'RECONNECTING';
    if (
      !row ||
      !origin ||
      !live ||
      origin.nodeId === this.options.nodeId ||
      origin.stoppedAt !== null ||
      isStale(origin, this.options.now?.() ?? Date.now()) ||
      this.pulls.has(row.streamId)
    ) {
      this.miss(playbackId);
      return;
    }
    await this.pull(row, origin.nodeId, origin.baseUrl);
  }

  private pull(row: LiveContentRow, originId: string, baseUrl: string): Promise<void> {
    const { hub, log, relayed } = this.options;
    const { streamId, playbackId } = row;
    relayed.set(streamId, row.tenantId);
    let into = new RelayIntoHub(hub, { streamId, playbackId }, this.options.pinArrival);
    let request: http.ClientRequest | undefined;
    let retry: NodeJS.Timeout | undefined;
    let unwatch: (() => void) | undefined;
    let finished = false;
    let origin = { id: originId, baseUrl };
    /** When the edge lost its connection; undefined while connected. */
    let lostAt: number | undefined;
    let attempts = 0;
    const finish = (reason: string): void => {
      if (finished) {
        return;
      }
      finished = true;
      clearTimeout(retry);
      unwatch?.();
      request?.destroy();
      into.close(reason);
      relayed.delete(streamId);
      this.pulls.delete(streamId);
      log.info({ streamId, origin: origin.id, reason }, 'relay from the origin ended');
    };
    this.pulls.set(streamId, () => finish('this node is shutting down'));
    log.info({ streamId, origin: originId }, 'relaying a stream from its origin');
    return new Promise<void>((resolve) => {
      let answered = false;
      const answer = (): void => {
        if (!answered) {
          answered = true;
          clearTimeout(timer);
          resolve();
        }
      };
      const timer = setTimeout(answer, this.options.waitMs ?? 5000);
      /** The connection broke: the stream waits on this node (RECONNECTING) while the edge connects again. */
      const lost = (reason: string): void => {
        if (finished) {
          return;
        }
        if (!unwatch) {
          finish(reason);
          answer();
          return;
        }
        const broken = request;
        request = undefined;
        broken?.destroy();
        lostAt ??= Date.now();
        if (Date.now() - lostAt >= (this.options.retryForMs ?? RETRY_FOR_MS)) {
          finish(`${reason}; no connection to the origin for ${Date.now() - lostAt} ms`);
          return;
        }
        into.detach(reason);
        into = new RelayIntoHub(hub, { streamId, playbackId }, this.options.pinArrival, into.written);
        const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** attempts) * (0.75 + Math.random() / 2);
        attempts += 1;
        log.warn({ streamId, origin: origin.id, reason, retryInMs: Math.round(delay) }, 'relay lost; connecting again');
        retry = setTimeout(() => void reconnect().catch((error: unknown) => lost(String(error))), delay);
        retry.unref();
      };
      /** Looks the origin up again (the encoder may have moved) and connects to it. */
      const reconnect = async (): Promise<void> => {
        const row = await this.options.lookup(playbackId);
        if (finished) {
          return;
        }
        if (row?.status !== 'LIVE' && row?.status !== 'RECONNECTING') {
          finish('the stream is no longer live');
          return;
        }
        const next = row.origin;
        if (!next || next.nodeId === this.options.nodeId || next.stoppedAt !== null) {
          lost('no live origin holds the stream');
          return;
        }
        origin = { id: next.nodeId, baseUrl: next.baseUrl };
        connect();
      };
      const connect = (): void => {
        const decoder = new RelayDecoder();
        const url = new URL(`/internal/relay/${streamId}`, origin.baseUrl);
        const client = url.protocol === 'https:' ? https : http;
        const current = client.get(url, {
          headers: { authorization: `Bearer ${signRelayToken(this.options.key, streamId, this.options.nodeId)}` },
        });
        request = current;
        current.on('response', (response) => {
          if (response.statusCode !== 200) {
            response.resume();
            lost(`the origin answered ${response.statusCode}`);
            return;
          }
          response.on('data', (chunk: Buffer) => {
            if (request !== current) {
              return;
            }
            try {
              for (const event of decoder.push(chunk)) {
                const progress = into.apply(event);
                if (progress === 'caught-up') {
                  if (lostAt !== undefined) {
                    log.info({ streamId, origin: origin.id, afterMs: Date.now() - lostAt }, 'relay resumed');
                  }
                  lostAt = undefined;
                  attempts = 0;
                  unwatch ??= this.watch(streamId, () => finish('no viewers left on this edge'));
                  answer();
                } else if (progress === 'ended') {
                  finish('the stream ended at the origin');
                }
              }
            } catch (error) {
              log.warn({ err: error, streamId, origin: origin.id }, 'bad relay data from the origin');
              finish('bad relay data from the origin');
            }
          });
          response.on('close', () => {
            if (request === current) {
              lost('the origin closed the relay');
            }
          });
        });
        current.on('error', (error) => {
          if (request === current) {
            log.warn({ err: error, streamId, origin: origin.id }, 'relay connection failed');
            lost('relay connection failed');
          }
        });
      };
      connect();
    });
  }

  /** Calls `idle` once the stream has had no viewer for `lingerMs`; returns the stop function. */
  private watch(streamId: string, idle: () => void): () => void {
    const stream: LiveStream | undefined = this.options.hub.getByStreamId(streamId);
    if (!stream) {
      return () => undefined;
    }
    const linger = this.options.lingerMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    const check = (): void => {
      clearTimeout(timer);
      timer = undefined;
      if (stream.viewers.count === 0) {
        timer = setTimeout(() => {
          if (stream.viewers.count === 0) {
            idle();
          }
        }, linger);
        timer.unref();
      }
    };
    const unsubscribe = stream.viewers.subscribe(check);
    check();
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }
}

/** A lifecycle sink that stays silent about relayed streams (their origin reports them). */
export function withoutRelayed(
  sink: StreamLifecycleSink,
  relayed: { has(streamId: string): boolean },
): StreamLifecycleSink {
  return {
    onStatus(streamId, status, info) {
      if (!relayed.has(streamId)) {
        sink.onStatus(streamId, status, info);
      }
    },
    onMetrics(streamId, metrics) {
      if (!relayed.has(streamId)) {
        sink.onMetrics?.(streamId, metrics);
      }
    },
  };
}
