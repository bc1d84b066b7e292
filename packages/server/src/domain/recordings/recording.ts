/**
 * The records of recordings (DVR) and of the artifacts cut from them (chapters, clips), as the
 * services return them (frameworks.md §1.7, §1.8, §1.10).
 */

/** Lifecycle of a recording (frameworks.md §1.7 status strings). */
export type RecordingStatus =
  | 'requested'
  | 'starting'
  | 'recording'
  | 'finalizing'
  | 'completed'
  | 'completed_partial'
  | 'failed'
  | 'deleted';

/** One DVR recording of a stream. */
export interface RecordingRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly streamId: string;
  readonly dvrHash: string;
  readonly playbackId: string;
  readonly status: RecordingStatus;
  readonly nodeId: string;
  readonly storagePrefix: string;
  readonly startedAt: Date;
  readonly endedAt: Date | null;
  readonly durationMs: number;
  readonly sizeBytes: number;
  readonly segmentCount: number;
  readonly errorMessage: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Kinds of artifacts cut from a recording. */
export type ArtifactKind = 'CHAPTER' | 'CLIP';

/** Lifecycle of an artifact: HLS (CMAF) and DASH play at once; `ready` once the MP4 and TS renditions are stored. */
export type ArtifactStatus = 'processing' | 'ready' | 'failed';

/** A chapter or clip: a range of a recording's segments with its own playback ID. */
export interface ArtifactRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly streamId: string;
  readonly recordingId: string;
  readonly kind: ArtifactKind;
  readonly hash: string;
  readonly playbackId: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly status: ArtifactStatus;
  /** First and last segment (inclusive) of the recording's leading track. */
  readonly firstSegment: number;
  readonly lastSegment: number;
  readonly startUnixMs: number;
  readonly endUnixMs: number;
  /** Where it starts on the recording's media timeline, ms from the recording's first frame. */
  readonly startOffsetMs: number;
  readonly durationMs: number;
  readonly sizeBytes: number;
  readonly hasGaps: boolean;
  readonly params: Readonly<Record<string, unknown>>;
  readonly errorMessage: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly expiresAt: Date | null;
}

/** What `/play/<playbackId>` finds in storage: a recording (whole) or an artifact of one. */
export interface StoredContent {
  readonly playbackId: string;
  readonly tenantId: string;
  readonly streamId: string;
  readonly recording: RecordingRecord;
  /** Undefined when the playback ID is the recording's own. */
  readonly artifact: ArtifactRecord | undefined;
}
