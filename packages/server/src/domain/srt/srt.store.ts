/**
 * SQL of SRT ingest: stream passphrases (tenant-scoped writes, ingest-side reads by stream UUID)
 * and the statistics of a stream's ingest connection as reported by the node holding it.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { streamsTable } from '../streams/stream-tables.js';
import type { IngestConnectionRow } from './srt.js';
import { ingestConnectionsTable, srtPassphrasesTable } from './srt-tables.js';

/** SRT passphrases and ingest connection statistics. */
export class SrtStore {
  constructor(private readonly db: Db) {}

  /** Sets (or with null removes) a stream's passphrase. */
  async setPassphrase(tenantId: string, streamId: string, passphrase: string | null, at: Date): Promise<void> {
    if (passphrase === null) {
      await this.db
        .delete(srtPassphrasesTable)
        .where(and(eq(srtPassphrasesTable.streamId, streamId), eq(srtPassphrasesTable.tenantId, tenantId)));
      return;
    }
    await this.db
      .insert(srtPassphrasesTable)
      .values({ streamId, tenantId, passphrase, updatedAt: at })
      .onConflictDoUpdate({ target: srtPassphrasesTable.streamId, set: { passphrase, updatedAt: at } });
  }

  /** The passphrase of a stream (ingest side: the media plane is trusted). */
  async passphraseOf(streamId: string): Promise<string | undefined> {
    const rows = await this.db
      .select({ passphrase: srtPassphrasesTable.passphrase })
      .from(srtPassphrasesTable)
      .where(eq(srtPassphrasesTable.streamId, streamId))
      .limit(1);
    return rows[0]?.passphrase;
  }

  /** Whether a stream of the tenant has a passphrase. */
  async hasPassphrase(tenantId: string, streamId: string): Promise<boolean> {
    const rows = await this.db
      .select({ streamId: srtPassphrasesTable.streamId })
      .from(srtPassphrasesTable)
      .where(and(eq(srtPassphrasesTable.streamId, streamId), eq(srtPassphrasesTable.tenantId, tenantId)))
      .limit(1);
    return rows.length > 0;
  }

  /** Stores a node's report of a stream's ingest connection (the newest report wins). */
  async reportConnection(row: IngestConnectionRow): Promise<void> {
    const { streamId, ...rest } = row;
    await this.db
      .insert(ingestConnectionsTable)
      .values(row)
      .onConflictDoUpdate({ target: ingestConnectionsTable.streamId, set: rest });
  }

  /** The last report of a stream's ingest connection. */
  async connectionOf(streamId: string): Promise<IngestConnectionRow | undefined> {
    const rows = await this.db
      .select()
      .from(ingestConnectionsTable)
      .where(eq(ingestConnectionsTable.streamId, streamId))
      .limit(1);
    const row = rows[0];
    return row ? { ...row, stats: row.stats as Record<string, unknown> } : undefined;
  }

  /** The tenant of a stream, undefined when it no longer exists. */
  async tenantOf(streamId: string): Promise<string | undefined> {
    const rows = await this.db
      .select({ tenantId: streamsTable.tenantId })
      .from(streamsTable)
      .where(eq(streamsTable.id, streamId))
      .limit(1);
    return rows[0]?.tenantId;
  }
}
