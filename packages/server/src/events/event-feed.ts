/**
 * What GraphQL subscriptions read: tenant-scoped event queues. A stream feed first checks that the
 * stream belongs to the caller's tenant (another tenant's or an unknown stream is NOT_FOUND, and
 * nothing is subscribed); events flow from the moment of subscribing, without backfill.
 */
import { type Principal, requirePrincipal, type Scope } from '../auth/principal.js';
import type { EventBus } from './event-bus.js';
import type { AnyBusEvent, EventName } from './event-map.js';
import { EventQueue } from './event-queue.js';

/** Resolves a Stream ID argument (global or raw UUID) within a tenant to its UUID; throws NotFoundError. */
export type StreamResolver = (tenantId: string, id: string) => Promise<string>;

/** Default: most events waiting per subscription before it fails as too slow. */
export const SUBSCRIPTION_QUEUE_LIMIT = 1000;
/** Scope a developer token needs to subscribe. */
export const SUBSCRIBE_SCOPE: Scope = 'streams:read';

/** Options of the feed. */
export interface EventFeedOptions {
  readonly bus: EventBus;
  readonly resolveStream: StreamResolver;
  readonly queueLimit?: number;
}

/** Opens event queues for subscriptions. */
export class EventFeed {
  private readonly queueLimit: number;

  constructor(private readonly options: EventFeedOptions) {
    this.queueLimit = options.queueLimit ?? SUBSCRIPTION_QUEUE_LIMIT;
  }

  /** Events named `names` of one stream of the caller's tenant. */
  async stream(
    principal: Principal | null,
    streamId: string,
    names: readonly EventName[],
  ): Promise<EventQueue<AnyBusEvent>> {
    const caller = requirePrincipal(principal, SUBSCRIBE_SCOPE);
    const id = await this.options.resolveStream(caller.tenantId, streamId);
    return this.open({ tenantId: caller.tenantId, streamId: id, names });
  }

  /** Events named `names` of the caller's whole tenant (VOD uploads have no stream). */
  tenant(principal: Principal | null, names: readonly EventName[]): EventQueue<AnyBusEvent> {
    const caller = requirePrincipal(principal, SUBSCRIBE_SCOPE);
    return this.open({ tenantId: caller.tenantId, names });
  }

  private open(filter: { tenantId: string; streamId?: string; names: readonly EventName[] }): EventQueue<AnyBusEvent> {
    let unsubscribe: (() => void) | undefined;
    const queue = new EventQueue<AnyBusEvent>(this.queueLimit, () => unsubscribe?.());
    unsubscribe = this.options.bus.subscribe(filter, (event) => queue.push(event));
    return queue;
  }
}
