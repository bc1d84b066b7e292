/** A VOD asset as the domain sees it: an upload session, then a processed asset with its own playback ID. */

/** Life of an asset (frameworks.md §1.9 `VodAssetStatus`). */
export type VodStatus = 'UPLOADING' | 'PROCESSING' | 'READY' | 'FAILED' | 'DELETED' | 'EXPIRED';

/** One row of `vod_assets`. */
export interface VodAssetRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly artifactHash: string;
  readonly playbackId: string;
  readonly uploadId: string;
  readonly storageKind: 'local' | 's3';
  /** Every object of the asset sits under this key prefix (ends with `/`). */
  readonly storagePrefix: string;
  readonly filename: string;
  readonly contentType: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly sizeBytes: number;
  readonly partBytes: number;
  readonly partCount: number;
  readonly status: VodStatus;
  readonly progressPercent: number;
  readonly errorMessage: string | null;
  readonly durationMs: number | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly videoCodec: string | null;
  readonly audioCodec: string | null;
  readonly bitrateKbps: number | null;
  readonly storedBytes: number | null;
  /** Playback outputs present: `hls`, `cmaf`, `dash`, `mp4`, `poster`, `sprite`. */
  readonly outputs: readonly string[];
  /** The node whose queue processes it (set on complete). */
  readonly processingNode: string | null;
  readonly expiresAt: Date;
  readonly completedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The key of the uploaded original. */
export function sourceKey(asset: Pick<VodAssetRecord, 'storagePrefix'>): string {
  return `${asset.storagePrefix}source`;
}

/** What processing learned and made. */
export interface VodProcessed {
  readonly durationMs: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly videoCodec: string | null;
  readonly audioCodec: string | null;
  readonly bitrateKbps: number | null;
  readonly storedBytes: number;
  readonly outputs: readonly string[];
}
