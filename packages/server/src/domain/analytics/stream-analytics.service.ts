/**
 * The daily analytics of a stream (spec §4: `analytics { usage { streaming {
 * streamAnalyticsDailyConnection } } }`): the caller's stream by global ID (another tenant's is
 * NOT_FOUND), a required time range of at most a year, days oldest first as a connection.
 */
import { ValidationError } from '../errors.js';
import { toGlobalId } from '../ids.js';
import { type Connection, encodeCursor, type PageInput, toConnection, toPageRequest } from '../pagination.js';
import type { StreamsService } from '../streams/streams.service.js';
import { parseTimestamp } from '../timestamps.js';
import { addDays, utcDay } from './utc-day.js';
import type { DailyRow, ViewerAnalyticsStore } from './viewer-analytics.store.js';

/** Longest time range one query may span. */
export const MAX_RANGE_DAYS = 366;

/** A time range as the API receives it (ISO 8601 timestamps). */
export interface TimeRangeInput {
  readonly start: string;
  readonly end: string;
}

/** One day of one stream. */
export interface StreamAnalyticsDay extends DailyRow {
  /** Global ID of this row. */
  readonly id: string;
}

/** What the service needs. */
export interface StreamAnalyticsDeps {
  readonly store: ViewerAnalyticsStore;
  readonly streams: StreamsService;
}

/** Parses one bound of a time range or throws a ValidationError naming it. */
function parseBound(value: string, field: string): number {
  return parseTimestamp(value, field).getTime();
}

/** The UTC days a time range covers, validated. */
export function daysOf(range: TimeRangeInput | null | undefined): { from: string; to: string } {
  if (!range) {
    throw new ValidationError('timeRange', 'required', 'timeRange {start end} is required');
  }
  const start = parseBound(range.start, 'timeRange.start');
  const end = parseBound(range.end, 'timeRange.end');
  if (end < start) {
    throw new ValidationError('timeRange.end', 'order', 'timeRange.end is before timeRange.start');
  }
  const from = utcDay(start);
  const to = utcDay(end);
  if (to > addDays(from, MAX_RANGE_DAYS - 1)) {
    throw new ValidationError(
      'timeRange',
      'max_range',
      `timeRange covers more than ${MAX_RANGE_DAYS} days (one year); query a year at a time`,
    );
  }
  return { from, to };
}

/** Analytics queries of streams. */
export class StreamAnalyticsService {
  constructor(private readonly deps: StreamAnalyticsDeps) {}

  /** Days of the tenant's stream inside `timeRange` that had viewers, oldest first. */
  async daily(
    tenantId: string,
    streamId: string,
    timeRange: TimeRangeInput | null | undefined,
    page: PageInput | null | undefined,
  ): Promise<Connection<StreamAnalyticsDay>> {
    const { from, to } = daysOf(timeRange);
    const request = toPageRequest(page);
    const stream = await this.deps.streams.get(tenantId, streamId);
    const cursorDay = request.cursor ? dayOfCursor(request.cursor.createdAtMicros) : undefined;
    const { rows, totalCount } = await this.deps.store.days(stream.id, from, to, {
      direction: request.direction,
      limit: request.limit,
      ...(cursorDay === undefined ? {} : { afterDay: cursorDay }),
    });
    const nodes = rows.map((row) => ({ ...row, id: toGlobalId('StreamAnalyticsDaily', `${row.streamId}|${row.day}`) }));
    return toConnection(nodes, request, totalCount, (row) => encodeCursor(`${row.day}T00:00:00.000Z`, row.streamId));
  }
}

function dayOfCursor(micros: bigint): string {
  return utcDay(Number(micros / 1000n));
}
