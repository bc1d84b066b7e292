/**
 * The typed event bus. In-process by default: `publish` delivers to this process's subscribers
 * at once; an attached transport (PostgreSQL LISTEN/NOTIFY) carries every event to the other
 * processes too, which hand them to `receive`. Publish only what is committed (see
 * `publishAfterCommit`).
 */
import { randomUUID } from 'node:crypto';
import { type Logger, silentLogger } from '@airwave/media';
import { type AnyBusEvent, type BusEvent, type EventMap, type EventName, streamIdOf } from './event-map.js';
import { RecentIds } from './recent-ids.js';

/** What producers need: publish one committed fact. */
export interface EventPublisher {
  /** Publishes an event now; returns it with its id. */
  publish<N extends EventName>(name: N, data: EventMap[N]): BusEvent<N>;
}

/** Carries events to other processes. */
export interface EventTransport {
  /** Sends one event published in this process (never blocks the caller). */
  send(event: AnyBusEvent): void;
  close(): Promise<void>;
}

/** Which events a subscriber receives: one tenant, optionally one stream, optionally some names. */
export interface EventFilter {
  readonly tenantId: string;
  readonly streamId?: string;
  readonly names?: readonly EventName[];
}

/** Receives matching events synchronously; must not block (queue and return). */
export type EventListener = (event: AnyBusEvent) => void;

interface Subscription {
  readonly filter: EventFilter;
  readonly names: ReadonlySet<EventName> | undefined;
  readonly listener: EventListener;
}

/** Whether a subscription or tap with this name filter (undefined: every name) receives `name` events. */
function receives(names: ReadonlySet<EventName> | undefined, name: EventName): boolean {
  return names === undefined || names.has(name);
}

/** Options of a bus. */
export interface EventBusOptions {
  readonly log?: Logger;
  /** Identifies this process's events in other processes (default: a fresh UUID). */
  readonly instanceId?: string;
}

/** The in-process bus, optionally bridged to other processes by a transport. */
export class EventBus implements EventPublisher {
  /** Origin stamped on events published here. */
  readonly instanceId: string;
  private readonly byStream = new Map<string, Set<Subscription>>();
  private readonly byTenant = new Map<string, Set<Subscription>>();
  private readonly taps = new Set<{ readonly names: ReadonlySet<EventName>; readonly listener: EventListener }>();
  private readonly seen = new RecentIds(10_000);
  private readonly log: Logger;
  private transport: EventTransport | undefined;
  /** Names whose local demand a transport watches: how many subscriptions and taps receive them, and the watchers. */
  private readonly demand = new Map<EventName, { count: number; readonly watchers: Set<(wanted: boolean) => void> }>();
  private closed = false;

  constructor(options: EventBusOptions = {}) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.log = options.log ?? silentLogger;
  }

  /** Attaches the transport that carries events to other processes. */
  useTransport(transport: EventTransport): void {
    this.transport = transport;
  }

  /** Publishes an event: local subscribers at once, then other processes through the transport. */
  publish<N extends EventName>(name: N, data: EventMap[N]): BusEvent<N> {
    if (typeof data.tenantId !== 'string' || data.tenantId === '') {
      throw new TypeError(`event ${name} needs a tenantId`);
    }
    const event = { id: randomUUID(), name, occurredAt: new Date().toISOString(), origin: this.instanceId, data };
    const any = event as unknown as AnyBusEvent;
    if (this.closed) {
      return event;
    }
    this.seen.add(event.id);
    this.deliver(any);
    this.transport?.send(any);
    return event;
  }

  /** Delivers an event that arrived from another process (duplicates are ignored). */
  receive(event: AnyBusEvent): void {
    if (this.closed || !this.seen.add(event.id)) {
      return;
    }
    this.deliver(event);
  }

  /** Subscribes to events matching `filter`; returns the unsubscribe function. */
  subscribe(filter: EventFilter, listener: EventListener): () => void {
    const subscription: Subscription = {
      filter,
      names: filter.names ? new Set(filter.names) : undefined,
      listener,
    };
    const index = filter.streamId === undefined ? this.byTenant : this.byStream;
    const key = filter.streamId ?? filter.tenantId;
    let set = index.get(key);
    if (!set) {
      set = new Set();
      index.set(key, set);
    }
    set.add(subscription);
    this.countDemand(subscription.names, 1);
    return () => {
      const current = index.get(key);
      if (current?.delete(subscription)) {
        this.countDemand(subscription.names, -1);
        if (current.size === 0) {
          index.delete(key);
        }
      }
    };
  }

  /** Internal consumers only (never a client): every event named in `names`, of every tenant. */
  tap(names: readonly EventName[], listener: EventListener): () => void {
    const tap = { names: new Set(names), listener };
    this.taps.add(tap);
    this.countDemand(tap.names, 1);
    return () => {
      if (this.taps.delete(tap)) {
        this.countDemand(tap.names, -1);
      }
    };
  }

  /**
   * Calls `watcher` with whether any subscription or tap of this process receives `name` events —
   * now, then whenever that changes — until the returned function is called (ADR 0085: a transport
   * tells other processes which periodic events this one wants).
   */
  watchDemand(name: EventName, watcher: (wanted: boolean) => void): () => void {
    let entry = this.demand.get(name);
    if (!entry) {
      let count = 0;
      for (const subscription of [...this.byStream.values(), ...this.byTenant.values()].flatMap((set) => [...set])) {
        count += receives(subscription.names, name) ? 1 : 0;
      }
      for (const tap of this.taps) {
        count += receives(tap.names, name) ? 1 : 0;
      }
      entry = { count, watchers: new Set() };
      this.demand.set(name, entry);
    }
    entry.watchers.add(watcher);
    watcher(entry.count > 0);
    return () => {
      entry.watchers.delete(watcher);
    };
  }

  /** Number of active subscriptions (metrics, tests). */
  get subscriberCount(): number {
    let count = 0;
    for (const set of [...this.byStream.values(), ...this.byTenant.values()]) {
      count += set.size;
    }
    return count;
  }

  /** Stops delivering and closes the transport. */
  async close(): Promise<void> {
    this.closed = true;
    this.byStream.clear();
    this.byTenant.clear();
    this.taps.clear();
    const transport = this.transport;
    this.transport = undefined;
    await transport?.close();
  }

  private deliver(event: AnyBusEvent): void {
    const streamId = streamIdOf(event);
    if (streamId !== undefined) {
      this.deliverTo(this.byStream.get(streamId), event);
    }
    this.deliverTo(this.byTenant.get(event.data.tenantId), event);
    for (const tap of this.taps) {
      if (receives(tap.names, event.name)) {
        this.call(tap.listener, event);
      }
    }
  }

  private countDemand(names: ReadonlySet<EventName> | undefined, delta: 1 | -1): void {
    for (const [name, entry] of this.demand) {
      if (!receives(names, name)) {
        continue;
      }
      entry.count += delta;
      if (entry.count === (delta > 0 ? 1 : 0)) {
        for (const watcher of entry.watchers) {
          watcher(delta > 0);
        }
      }
    }
  }

  private call(listener: EventListener, event: AnyBusEvent): void {
    try {
      listener(event);
    } catch (error) {
      this.log.error({ err: error, event: event.name }, 'event listener failed');
    }
  }

  private deliverTo(set: Set<Subscription> | undefined, event: AnyBusEvent): void {
    if (!set) {
      return;
    }
    for (const subscription of [...set]) {
      if (subscription.filter.tenantId !== event.data.tenantId) {
        continue;
      }
      if (!receives(subscription.names, event.name)) {
        continue;
      }
      this.call(subscription.listener, event);
    }
  }
}
