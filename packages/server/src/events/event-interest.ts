/**
 * Which periodic events the other processes want (ADR 0085). `viewer.metrics` is published every
 * 2 s for every live stream whether anyone reads it; carried to the other processes it cost a
 * NOTIFY (a committed transaction in PostgreSQL) and a decode in every listening process, for
 * nobody most of the time. A process in which some subscription receives such an event announces
 * it on the interest channel at once and every `renewMs` while it lasts (a lease); the others send
 * such events only while a lease they heard runs, during their first lease period of listening
 * (they may have missed the announcements made before) and while they are not listening.
 */
import type { EventName } from './event-map.js';

/** Events carried to other processes only while one of them wants them. */
export const ON_DEMAND_EVENTS: readonly EventName[] = ['viewer.metrics'];
/** How often a process with a subscriber renews its announcement. */
export const INTEREST_RENEW_MS = 10_000;
/** How long an announcement holds without renewal (three renewals). */
export const INTEREST_LEASE_MS = 3 * INTEREST_RENEW_MS;

/** Longest lease an announcement may ask for. */
const MAX_LEASE_MS = 300_000;

/** An announcement: `origin` wants `names` for `leaseMs` from its arrival. */
export interface Interest {
  readonly origin: string;
  readonly names: readonly string[];
  readonly leaseMs: number;
}

/** The JSON announcement on the interest channel: `{v: 1, origin, names, leaseMs}`. */
export function encodeInterest(interest: Interest): string {
  return JSON.stringify({ v: 1, ...interest });
}

/** Parses an announcement; undefined when it is not one. */
export function decodeInterest(payload: string): Interest | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null || !('v' in value) || value.v !== 1) {
      return undefined;
    }
    const { origin, names, leaseMs } = value as { origin?: unknown; names?: unknown; leaseMs?: unknown };
    if (typeof origin !== 'string' || !Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
      return undefined;
    }
    if (typeof leaseMs !== 'number' || !(leaseMs > 0)) {
      return undefined;
    }
    return { origin, names, leaseMs: Math.min(leaseMs, MAX_LEASE_MS) };
  } catch {
    return undefined;
  }
}

/** The leases heard from other processes, per event name. */
export class RemoteInterest {
  private readonly leases = new Map<string, Map<string, number>>();
  private listeningSince: number | undefined;

  constructor(
    /** How long after (re)starting to listen demand is assumed (the longest lease others hold). */
    private readonly assumeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Listening (re)started: announcements made before were missed, so assume demand for a while. */
  listening(): void {
    this.listeningSince = this.now();
  }

  /** Listening stopped (connection lost): nothing is heard, so assume demand until it resumes. */
  deaf(): void {
    this.listeningSince = undefined;
  }

  /** An announcement heard. */
  heard({ origin, names, leaseMs }: Interest): void {
    const until = this.now() + leaseMs;
    for (const name of names) {
      let byOrigin = this.leases.get(name);
      if (!byOrigin) {
        byOrigin = new Map();
        this.leases.set(name, byOrigin);
      }
      byOrigin.set(origin, until);
    }
  }

  /** Whether another process may want `name` events now. */
  wanted(name: EventName): boolean {
    const now = this.now();
    if (this.listeningSince === undefined || now < this.listeningSince + this.assumeMs) {
      return true;
    }
    const byOrigin = this.leases.get(name);
    if (!byOrigin) {
      return false;
    }
    for (const [origin, until] of byOrigin) {
      if (until > now) {
        return true;
      }
      byOrigin.delete(origin);
    }
    return false;
  }
}
