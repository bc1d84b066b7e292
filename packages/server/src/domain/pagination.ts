/**
 * Relay connections (DESIGN §5): `page {first = 50 (max 500), after, last, before}` with keyset
 * cursors over (created_at, id), stable under inserts.
 */
import { ValidationError } from './errors.js';

/** Page input as GraphQL passes it. */
export interface PageInput {
  readonly first?: number | null;
  readonly after?: string | null;
  readonly last?: number | null;
  readonly before?: string | null;
}

/** Default and maximum page sizes. */
export const PAGE_DEFAULT = 50;
/** Largest `first`/`last` accepted. */
export const PAGE_MAX = 500;

/** A decoded keyset position. */
export interface Cursor {
  readonly createdAtMicros: bigint;
  readonly id: string;
}

/** The normalised request a store turns into SQL. */
export interface PageRequest {
  readonly direction: 'forward' | 'backward';
  readonly limit: number;
  readonly cursor: Cursor | undefined;
}

/** Encodes a cursor for a row. */
export function encodeCursor(createdAt: Date | string, id: string, micros?: bigint): string {
  const value = micros ?? BigInt(new Date(createdAt).getTime()) * 1000n;
  return Buffer.from(`tu:${value}:id:${id}`, 'utf8').toString('base64');
}

/** Decodes a cursor or throws a ValidationError naming the field. */
export function decodeCursor(cursor: string, field: string): Cursor {
  const match = /^tu:(\d{1,20}):id:(.+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!match) {
    throw new ValidationError(field, 'cursor', `${field} is not a cursor returned by this API`);
  }
  return { createdAtMicros: BigInt(match[1] as string), id: match[2] as string };
}

/** Validates page input; backward paging wins when both directions are given. */
export function toPageRequest(page: PageInput | null | undefined): PageRequest {
  const backward = page?.last != null || page?.before != null;
  const size = backward ? page?.last : page?.first;
  const field = backward ? 'page.last' : 'page.first';
  const limit = size ?? PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 0 || limit > PAGE_MAX) {
    throw new ValidationError(field, 'range', `${field} must be between 0 and ${PAGE_MAX}`);
  }
  const raw = backward ? page?.before : page?.after;
  return {
    direction: backward ? 'backward' : 'forward',
    limit,
    cursor: raw ? decodeCursor(raw, backward ? 'page.before' : 'page.after') : undefined,
  };
}

/** A page of rows as services return it. */
export interface Connection<T> {
  readonly edges: { cursor: string; node: T }[];
  readonly nodes: T[];
  readonly pageInfo: {
    startCursor: string | null;
    endCursor: string | null;
    hasNextPage: boolean;
    hasPreviousPage: boolean;
  };
  readonly totalCount: number;
}

/**
 * Builds a connection from rows fetched with `limit + 1` in the request's direction
 * (backward rows arrive newest-last reversed by the store).
 */
export function toConnection<T>(
  rows: T[],
  request: PageRequest,
  totalCount: number,
  cursorOf: (row: T) => string,
): Connection<T> {
  const hasMore = rows.length > request.limit;
  const slice = rows.slice(0, request.limit);
  const ordered = request.direction === 'backward' ? slice.reverse() : slice;
  const edges = ordered.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    nodes: ordered,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasNextPage: request.direction === 'forward' ? hasMore : request.cursor !== undefined,
      hasPreviousPage: request.direction === 'backward' ? hasMore : request.cursor !== undefined,
    },
    totalCount,
  };
}
