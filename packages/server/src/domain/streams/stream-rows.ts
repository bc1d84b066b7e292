/** What both stream stores write and match: the row of a new primary key, a tenant's stream by id. */
import { and, eq, type SQL } from 'drizzle-orm';
import { type streamKeysTable, streamsTable } from './stream-tables.js';

/** The row of a stream's new primary key (active). */
export function primaryKeyRow(
  tenantId: string,
  streamId: string,
  key: { readonly id: string; readonly value: string },
  createdAt: Date,
): typeof streamKeysTable.$inferInsert {
  return {
    id: key.id,
    tenantId,
    streamId,
    keyValue: key.value,
    keyName: 'primary',
    isPrimary: true,
    isActive: true,
    createdAt,
  };
}

/** The tenant's stream `id` (no other tenant's stream ever matches). */
export function tenantStream(tenantId: string, id: string): SQL | undefined {
  return and(eq(streamsTable.tenantId, tenantId), eq(streamsTable.id, id));
}
