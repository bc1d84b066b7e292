/** Records of SRT ingest shared by the store, the service and the API. */

/** What a node reports about a stream's ingest connection. */
export interface IngestConnectionRow {
  readonly streamId: string;
  readonly nodeId: string;
  readonly sessionId: string;
  readonly protocol: string;
  readonly connected: boolean;
  readonly stats: Record<string, unknown>;
  readonly updatedAt: Date;
}
