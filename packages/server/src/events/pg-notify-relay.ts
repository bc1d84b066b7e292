/**
 * Carries bus events between processes sharing one PostgreSQL database with LISTEN/NOTIFY
 * (PostgreSQL docs, "NOTIFY": payloads under 8000 bytes, delivered to listening sessions after
 * the sending transaction commits, in commit order). One dedicated pooled client listens and
 * reconnects with backoff when its connection drops; sends go through the pool one query at a time
 * so events leave in publish order, every event queued by then in the same query (one NOTIFY each,
 * in order: the hub's `viewer.metrics` of all streams come at once every 2 s, and a round trip per
 * event woke the database and this process once per stream, ADR 0075). Each process skips its own
 * echo and de-duplicates by event id. `viewer.metrics` leaves only while some other process has a
 * subscriber for it (leases announced on `<channel>_interest`, event-interest.ts, ADR 0085).
 * Delivery is at most once: events sent while a listener is reconnecting are not replayed.
 *
 * PGlite is one process per data directory, so it needs no relay: its bus stays in-process.
 */
import type { Logger } from '@airwave/media';
import type pg from 'pg';
import type { EventBus, EventTransport } from './event-bus.js';
import {
  decodeInterest,
  encodeInterest,
  INTEREST_LEASE_MS,
  INTEREST_RENEW_MS,
  ON_DEMAND_EVENTS,
  RemoteInterest,
} from './event-interest.js';
import type { AnyBusEvent, EventName } from './event-map.js';
import { decodeWireEvent, encodeWireEvent } from './wire-event.js';

/** Channel every Airwave process listens on. */
export const EVENTS_CHANNEL = 'airwave_events';
/** Largest NOTIFY payload PostgreSQL accepts is 8000 bytes; stay under it. */
export const MAX_NOTIFY_BYTES = 7999;
/** Most events waiting to be sent; beyond it new events are dropped (and logged). */
export const MAX_PENDING_SENDS = 10_000;
/** Most events sent in one query (each payload is under 8000 bytes). */
const MAX_EVENTS_PER_QUERY = 100;

/** Options of the relay. */
export interface PgNotifyRelayOptions {
  readonly pool: pg.Pool;
  readonly bus: EventBus;
  readonly log: Logger;
  readonly channel?: string;
  /** First reconnect delay; doubles up to `maxBackoffMs` (defaults 200 ms and 10 s). */
  readonly minBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** How often this process renews its interest announcement, and how long one holds (tests shorten them). */
  readonly interestRenewMs?: number;
  readonly interestLeaseMs?: number;
}

/** Relay counters (metrics, tests). */
export interface RelayStats {
  sent: number;
  received: number;
  dropped: number;
  invalid: number;
  reconnects: number;
  /** On-demand events not sent because no other process wanted them. */
  unwanted: number;
}

/** The LISTEN/NOTIFY transport of the bus. */
export class PgNotifyRelay implements EventTransport {
  readonly stats: RelayStats = { sent: 0, received: 0, dropped: 0, invalid: 0, reconnects: 0, unwanted: 0 };
  private readonly channel: string;
  private readonly interestChannel: string;
  private readonly remote: RemoteInterest;
  /** On-demand events some subscription of this process receives. */
  private readonly wanted = new Set<EventName>();
  private readonly unwatch: (() => void)[] = [];
  private announceTimer: NodeJS.Timeout | undefined;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  private client: pg.PoolClient | undefined;
  private backoffMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly pending: string[] = [];
  private sending = false;
  private idle: Promise<void> = Promise.resolve();
  private closed = false;
  private detach: ((error?: unknown) => boolean) | undefined;

  constructor(private readonly options: PgNotifyRelayOptions) {
    this.channel = options.channel ?? EVENTS_CHANNEL;
    if (!/^[a-z_][a-z0-9_]*$/.test(this.channel)) {
      throw new Error(`invalid channel name ${this.channel}`);
    }
    this.minBackoffMs = options.minBackoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.backoffMs = this.minBackoffMs;
    this.interestChannel = `${this.channel}_interest`;
    this.remote = new RemoteInterest(options.interestLeaseMs ?? INTEREST_LEASE_MS);
  }

  /** Starts listening; rejects when the first connection fails (the database is unreachable). */
  async start(): Promise<void> {
    await this.listen();
    for (const name of ON_DEMAND_EVENTS) {
      this.unwatch.push(this.options.bus.watchDemand(name, (wanted) => this.demandChanged(name, wanted)));
    }
  }

  /** True while the listening connection is up. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Queues one event for the other processes. */
  send(event: AnyBusEvent): void {
    if (this.closed) {
      return;
    }
    if (ON_DEMAND_EVENTS.includes(event.name) && !this.remote.wanted(event.name)) {
      this.stats.unwanted++;
      return;
    }
    const payload = encodeWireEvent(event, MAX_NOTIFY_BYTES);
    if (payload === undefined) {
      this.stats.dropped++;
      this.options.log.warn(
        { event: event.name, eventId: event.id },
        'event too large for NOTIFY; delivered locally only',
      );
      return;
    }
    if (this.pending.length >= MAX_PENDING_SENDS) {
      this.stats.dropped++;
      if (this.stats.dropped % 1000 === 1) {
        this.options.log.warn({ dropped: this.stats.dropped }, 'event relay backlog full; dropping events');
      }
      return;
    }
    this.pending.push(payload);
    if (!this.sending) {
      this.idle = this.drain();
    }
  }

  /** Resolves when every queued event has been sent (tests, shutdown). */
  flushed(): Promise<void> {
    return this.idle;
  }

  /** Stops listening and sending; pending events are sent first. */
  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    while (this.sending) {
      await this.idle;
    }
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.announceTimer);
    for (const unwatch of this.unwatch.splice(0)) {
      unwatch();
    }
    const client = this.client;
    const detach = this.detach;
    if (client && detach) {
      try {
        await client.query(`UNLISTEN ${this.channel}; UNLISTEN ${this.interestChannel}`);
        detach();
      } catch (error) {
        detach(error);
      }
    }
  }

  private async drain(): Promise<void> {
    this.sending = true;
    try {
      while (this.pending.length > 0) {
        const payloads = this.pending.splice(0, MAX_EVENTS_PER_QUERY);
        try {
          await this.options.pool.query(
            'SELECT pg_notify($1, payload) FROM unnest($2::text[]) WITH ORDINALITY AS sent(payload, n) ORDER BY n',
            [this.channel, payloads],
          );
          this.stats.sent += payloads.length;
        } catch (error) {
          this.stats.dropped += payloads.length;
          this.options.log.warn({ err: error, events: payloads.length }, 'could not relay events to other processes');
        }
      }
    } finally {
      this.sending = false;
    }
  }

  private async listen(): Promise<void> {
    const client = await this.options.pool.connect();
    if (this.closed) {
      client.release();
      return;
    }
    let done = false;
    const onNotification = (message: pg.Notification) => {
      if (message.channel === this.channel) {
        this.onPayload(message.payload ?? '');
      } else if (message.channel === this.interestChannel) {
        this.onInterest(message.payload ?? '');
      }
    };
    const detach = (error?: unknown) => {
      if (done) {
        return false;
      }
      done = true;
      client.removeListener('notification', onNotification);
      client.removeListener('error', onLost);
      client.removeListener('end', onEnd);
      client.on('error', () => undefined);
      if (this.client === client) {
        this.client = undefined;
        this.detach = undefined;
        this.remote.deaf();
      }
      client.release(error === undefined ? undefined : error instanceof Error ? error : true);
      return true;
    };
    const onLost = (error: unknown) => {
      if (detach(error) && !this.closed) {
        this.options.log.warn(
          { err: error, retryInMs: this.backoffMs },
          'event listener connection lost; reconnecting',
        );
        this.scheduleReconnect();
      }
    };
    const onEnd = () => onLost(new Error('connection ended'));
    client.on('notification', onNotification);
    client.on('error', onLost);
    client.on('end', onEnd);
    try {
      await client.query(`LISTEN ${this.channel}; LISTEN ${this.interestChannel}`);
    } catch (error) {
      detach(error);
      throw error;
    }
    if (done) {
      throw new Error('event listener connection lost while starting to listen');
    }
    this.client = client;
    this.detach = detach;
    this.backoffMs = this.minBackoffMs;
    this.remote.listening();
    if (this.wanted.size > 0) {
      this.announce();
    }
  }

  /** A subscription of this process started or stopped receiving `name` events. */
  private demandChanged(name: EventName, wanted: boolean): void {
    if (wanted) {
      this.wanted.add(name);
    } else {
      this.wanted.delete(name);
    }
    if (this.wanted.size === 0 || this.closed) {
      clearInterval(this.announceTimer);
      this.announceTimer = undefined;
      return;
    }
    if (wanted) {
      this.announce();
    }
    if (!this.announceTimer) {
      this.announceTimer = setInterval(() => this.announce(), this.options.interestRenewMs ?? INTEREST_RENEW_MS);
      this.announceTimer.unref();
    }
  }

  /** Tells the other processes which on-demand events this one wants (a lease they hold for a while). */
  private announce(): void {
    const payload = encodeInterest({
      origin: this.options.bus.instanceId,
      names: [...this.wanted],
      leaseMs: this.options.interestLeaseMs ?? INTEREST_LEASE_MS,
    });
    this.options.pool
      .query('SELECT pg_notify($1, $2)', [this.interestChannel, payload])
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'could not announce event interest'));
  }

  private onInterest(payload: string): void {
    const interest = decodeInterest(payload);
    if (interest && interest.origin !== this.options.bus.instanceId) {
      this.remote.heard(interest);
    }
  }

  private scheduleReconnect(): void {
    const delay = this.backoffMs * (0.75 + Math.random() * 0.5);
    this.backoffMs = Math.min(this.backoffMs * 2, this.maxBackoffMs);
    this.retryTimer = setTimeout(() => {
      this.stats.reconnects++;
      this.listen().catch((error: unknown) => {
        if (!this.closed) {
          this.options.log.warn({ err: error, retryInMs: this.backoffMs }, 'event listener reconnect failed');
          this.scheduleReconnect();
        }
      });
    }, delay);
    this.retryTimer.unref();
  }

  private onPayload(payload: string): void {
    const event = decodeWireEvent(payload);
    if (!event) {
      this.stats.invalid++;
      if (this.stats.invalid % 100 === 1) {
        this.options.log.warn({ invalid: this.stats.invalid }, 'ignored an invalid event notification');
      }
      return;
    }
    if (event.origin === this.options.bus.instanceId) {
      return;
    }
    this.stats.received++;
    this.options.bus.receive(event);
  }
}
