/**
 * Per-viewer-session cache of webhook decisions: one in-flight call per (playback ID, session)
 * shared by concurrent requests, allows kept for ALLOW_TTL_MS and denials for DENY_TTL_MS, all
 * tied to the policy version and dropped at once when the policy changes.
 */
import type { WebhookOutcome } from './webhook-client.js';

/** How long an allow is reused for the same viewer session. */
export const ALLOW_TTL_MS = 60_000;
/** How long a denial (or time-out, network error) is reused for the same viewer session. */
export const DENY_TTL_MS = 5_000;
/** Most sessions remembered per node; the oldest playback ID's entries go first. */
export const MAX_CACHED_SESSIONS = 100_000;
const SWEEP_INTERVAL_MS = 10_000;

interface Entry {
  readonly version: number;
  readonly pending: Promise<WebhookOutcome>;
  outcome?: WebhookOutcome;
  expiresAt: number;
}

/** Caches webhook outcomes per playback ID and viewer session. */
export class WebhookDecisionCache {
  private readonly byPlayback = new Map<string, Map<string, Entry>>();
  private size = 0;
  private nextSweepAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The cached outcome for this session and policy version, or the result of `call` (made once
   * however many requests ask at the same time).
   */
  decide(
    playbackId: string,
    sessionId: string,
    version: number,
    call: () => Promise<WebhookOutcome>,
  ): Promise<WebhookOutcome> {
    const sessions = this.sessionsOf(playbackId);
    const existing = sessions.get(sessionId);
    const now = this.now();
    if (existing && existing.version === version && (existing.outcome === undefined || existing.expiresAt > now)) {
      return existing.pending;
    }
    if (!existing) {
      this.size++;
    }
    const pending = call();
    const entry: Entry = { version, pending, expiresAt: Number.POSITIVE_INFINITY };
    sessions.set(sessionId, entry);
    void pending.then((outcome) => {
      entry.outcome = outcome;
      entry.expiresAt = this.now() + (outcome.allowed ? ALLOW_TTL_MS : DENY_TTL_MS);
    });
    return pending;
  }

  /** Forgets every decision of a playback ID (its policy changed). */
  clear(playbackId: string): void {
    const sessions = this.byPlayback.get(playbackId);
    if (sessions) {
      this.size -= sessions.size;
      this.byPlayback.delete(playbackId);
    }
  }

  /** Number of remembered sessions. */
  get sessionCount(): number {
    return this.size;
  }

  private sessionsOf(playbackId: string): Map<string, Entry> {
    const now = this.now();
    if (now >= this.nextSweepAt) {
      this.nextSweepAt = now + SWEEP_INTERVAL_MS;
      this.sweep(now);
    }
    while (this.size >= MAX_CACHED_SESSIONS) {
      const oldest = this.byPlayback.keys().next();
      if (oldest.done) {
        break;
      }
      this.clear(oldest.value);
    }
    let sessions = this.byPlayback.get(playbackId);
    if (!sessions) {
      sessions = new Map();
      this.byPlayback.set(playbackId, sessions);
    }
    return sessions;
  }

  private sweep(now: number): void {
    for (const [playbackId, sessions] of this.byPlayback) {
      for (const [sessionId, entry] of sessions) {
        if (entry.outcome !== undefined && entry.expiresAt <= now) {
          sessions.delete(sessionId);
          this.size--;
        }
      }
      if (sessions.size === 0) {
        this.byPlayback.delete(playbackId);
      }
    }
  }
}
