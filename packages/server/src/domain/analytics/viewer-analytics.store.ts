/**
 * SQL of viewer analytics: one transaction per batch of recorded sessions (session rows upserted
 * with their totals, daily counters incremented, unique viewer keys inserted once, per-minute
 * concurrency and the day's peak), the daily salts, the closing of sessions a crashed node left
 * open, and the pages the analytics query reads.
 */
import { and, asc, count, desc, eq, gt, gte, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import {
  analyticsSaltsTable,
  streamAnalyticsDailyTable,
  streamConcurrencyTable,
  streamDailyViewersTable,
  viewerSessionsTable,
} from './analytics-tables.js';

/** A session row as written (totals, not deltas: writing it twice is harmless). */
export interface SessionRow {
  readonly id: string;
  readonly streamId: string | null;
  readonly contentType: string;
  readonly contentId: string;
  readonly nodeId: string;
  readonly protocol: string;
  readonly viewerKey: string;
  readonly startedAt: Date;
  readonly lastSeenAt: Date;
  readonly endedAt: Date | null;
  readonly bytesSent: number;
}

/** What one batch adds to a stream's day. */
export interface DailyDelta {
  readonly streamId: string;
  readonly day: string;
  views: number;
  egressBytes: number;
  viewerSeconds: number;
}

/** Concurrent viewers of a stream on this node in one minute. */
export interface ConcurrencySample {
  readonly streamId: string;
  readonly minute: Date;
  readonly day: string;
  readonly viewers: number;
}

/** One flush of the recorder. */
export interface AnalyticsBatch {
  readonly nodeId: string;
  readonly sessions: readonly SessionRow[];
  readonly daily: readonly DailyDelta[];
  readonly viewers: readonly { readonly streamId: string; readonly day: string; readonly viewerKey: string }[];
  readonly concurrency: readonly ConcurrencySample[];
}

/** One row of the roll-up. */
export interface DailyRow {
  readonly streamId: string;
  readonly day: string;
  readonly totalViews: number;
  readonly uniqueViewers: number;
  readonly egressBytes: number;
  readonly viewerSeconds: number;
  readonly peakConcurrent: number;
}

/** Rows per INSERT statement. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) {
    out.push(items.slice(i, i + CHUNK));
  }
  return out;
}

/** Viewer analytics persistence. */
export class ViewerAnalyticsStore {
  constructor(private readonly db: Db) {}

  /** Writes one batch atomically. */
  async write(batch: AnalyticsBatch): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const rows of chunks(batch.sessions)) {
        await tx
          .insert(viewerSessionsTable)
          .values(rows.map((row) => ({ ...row })))
          .onConflictDoUpdate({
            target: viewerSessionsTable.id,
            set: {
              lastSeenAt: sql`excluded.last_seen_at`,
              endedAt: sql`excluded.ended_at`,
              bytesSent: sql`excluded.bytes_sent`,
              protocol: sql`excluded.protocol`,
            },
          });
      }
      const daily = new Map<string, DailyDelta & { uniques: number }>();
      const dailyOf = (streamId: string, day: string) => {
        const key = `${streamId}|${day}`;
        let entry = daily.get(key);
        if (!entry) {
          entry = { streamId, day, views: 0, egressBytes: 0, viewerSeconds: 0, uniques: 0 };
          daily.set(key, entry);
        }
        return entry;
      };
      for (const delta of batch.daily) {
        const entry = dailyOf(delta.streamId, delta.day);
        entry.views += delta.views;
        entry.egressBytes += delta.egressBytes;
        entry.viewerSeconds += delta.viewerSeconds;
      }
      for (const rows of chunks(batch.viewers)) {
        const added = await tx
          .insert(streamDailyViewersTable)
          .values(rows.map((row) => ({ ...row })))
          .onConflictDoNothing()
          .returning({ streamId: streamDailyViewersTable.streamId, day: streamDailyViewersTable.day });
        for (const row of added) {
          dailyOf(row.streamId, row.day).uniques++;
        }
      }
      for (const sample of batch.concurrency) {
        dailyOf(sample.streamId, sample.day);
      }
      for (const rows of chunks([...daily.values()])) {
        const t = streamAnalyticsDailyTable;
        await tx
          .insert(t)
          .values(
            rows.map((row) => ({
              streamId: row.streamId,
              day: row.day,
              totalViews: row.views,
              uniqueViewers: row.uniques,
              egressBytes: Math.round(row.egressBytes),
              viewerSeconds: row.viewerSeconds,
              peakConcurrent: 0,
            })),
          )
          .onConflictDoUpdate({
            target: [t.streamId, t.day],
            set: {
              totalViews: sql`${t.totalViews} + excluded.total_views`,
              uniqueViewers: sql`${t.uniqueViewers} + excluded.unique_viewers`,
              egressBytes: sql`${t.egressBytes} + excluded.egress_bytes`,
              viewerSeconds: sql`${t.viewerSeconds} + excluded.viewer_seconds`,
            },
          });
      }
      const c = streamConcurrencyTable;
      for (const rows of chunks(batch.concurrency)) {
        await tx
          .insert(c)
          .values(
            rows.map((row) => ({
              streamId: row.streamId,
              minute: row.minute,
              nodeId: batch.nodeId,
              viewers: row.viewers,
            })),
          )
          .onConflictDoUpdate({
            target: [c.streamId, c.minute, c.nodeId],
            set: { viewers: sql`greatest(${c.viewers}, excluded.viewers)` },
          });
      }
      for (const sample of batch.concurrency) {
        const t = streamAnalyticsDailyTable;
        const sum = sql`(select coalesce(sum(${c.viewers}), 0)::int from ${c} where ${c.streamId} = ${sample.streamId} and ${c.minute} = ${sample.minute.toISOString()}::timestamptz)`;
        await tx
          .update(t)
          .set({ peakConcurrent: sql`greatest(${t.peakConcurrent}, ${sum})` })
          .where(and(eq(t.streamId, sample.streamId), eq(t.day, sample.day)));
      }
    });
  }

  /** The salt of `day`, created (first writer wins) when it has none. */
  async salt(day: string, candidate: string): Promise<string> {
    await this.db.insert(analyticsSaltsTable).values({ day, salt: candidate }).onConflictDoNothing();
    const rows = await this.db.select().from(analyticsSaltsTable).where(eq(analyticsSaltsTable.day, day)).limit(1);
    const salt = rows[0]?.salt;
    if (!salt) {
      throw new Error(`the analytics salt of ${day} could not be stored`);
    }
    return salt;
  }

  /** Deletes salts of days before `day` and concurrency samples before `minute`. */
  async prune(day: string, minute: Date): Promise<void> {
    await this.db.delete(analyticsSaltsTable).where(lt(analyticsSaltsTable.day, day));
    await this.db.delete(streamConcurrencyTable).where(lt(streamConcurrencyTable.minute, minute));
  }

  /**
   * Ends sessions left open by a node that stopped writing (a crash): open sessions not seen
   * since `before` end when they were last seen. Returns how many were closed.
   */
  async closeAbandoned(before: Date): Promise<number> {
    const rows = await this.db
      .update(viewerSessionsTable)
      .set({ endedAt: sql`${viewerSessionsTable.lastSeenAt}` })
      .where(and(isNull(viewerSessionsTable.endedAt), lt(viewerSessionsTable.lastSeenAt, before)))
      .returning({ id: viewerSessionsTable.id });
    return rows.length;
  }

  /**
   * Days of one stream between `from` and `to` (inclusive), oldest first: `limit` + 1 rows after
   * (forward) or before (backward, newest first) the cursor's day, and how many days match.
   */
  async days(
    streamId: string,
    from: string,
    to: string,
    page: { readonly direction: 'forward' | 'backward'; readonly limit: number; readonly afterDay?: string },
  ): Promise<{ rows: DailyRow[]; totalCount: number }> {
    const t = streamAnalyticsDailyTable;
    const range = and(eq(t.streamId, streamId), gte(t.day, from), lte(t.day, to));
    const cursor =
      page.afterDay === undefined
        ? undefined
        : page.direction === 'forward'
          ? gt(t.day, page.afterDay)
          : lt(t.day, page.afterDay);
    const [rows, totals] = await Promise.all([
      page.limit === 0
        ? Promise.resolve([])
        : this.db
            .select()
            .from(t)
            .where(and(range, cursor))
            .orderBy(page.direction === 'forward' ? asc(t.day) : desc(t.day))
            .limit(page.limit + 1),
      this.db.select({ total: count() }).from(t).where(range),
    ]);
    return {
      rows: rows.map((row) => ({ ...row, egressBytes: Number(row.egressBytes) })),
      totalCount: totals[0]?.total ?? 0,
    };
  }
}
