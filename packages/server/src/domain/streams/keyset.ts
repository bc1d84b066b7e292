/**
 * Keyset paging in SQL for newest-first connections over (created_at, id): the condition and
 * order of a page request (domain/pagination.ts). Rows are stored with millisecond created_at
 * so cursor comparisons are exact.
 */
import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm';
import { ValidationError } from '../errors.js';
import { isUuid } from '../ids.js';
import type { PageRequest } from '../pagination.js';
import { encodeCursor } from '../pagination.js';

/** The WHERE part that starts a page after (or before) its cursor, or undefined on the first page. */
export function keysetCondition(createdAt: AnyColumn, id: AnyColumn, request: PageRequest): SQL | undefined {
  if (!request.cursor) {
    return undefined;
  }
  const at = new Date(Number(request.cursor.createdAtMicros / 1000n)).toISOString();
  const cursorId = request.cursor.id;
  if (!isUuid(cursorId)) {
    const field = request.direction === 'forward' ? 'page.after' : 'page.before';
    throw new ValidationError(field, 'cursor', `${field} is not a cursor returned by this API`);
  }
  return request.direction === 'forward'
    ? sql`(${createdAt}, ${id}) < (${at}::timestamptz, ${cursorId}::uuid)`
    : sql`(${createdAt}, ${id}) > (${at}::timestamptz, ${cursorId}::uuid)`;
}

/** ORDER BY of a page request: newest first forward, oldest first backward (reversed later). */
export function keysetOrder(createdAt: AnyColumn, id: AnyColumn, request: PageRequest): SQL[] {
  return request.direction === 'forward' ? [desc(createdAt), desc(id)] : [asc(createdAt), asc(id)];
}

/** The cursor of a row. */
export function cursorOf(row: { readonly createdAt: Date; readonly id: string }): string {
  return encodeCursor(row.createdAt, row.id);
}
