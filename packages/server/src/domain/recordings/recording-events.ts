/**
 * The events recordings publish on the bus, after the rows they report are written: the DVR
 * lifecycle (started, a segment written, stopped, failed, deleted), artifacts created, stored and
 * deleted, and the progress of the processing that makes renditions, posters and sprites.
 */
import type { EventPublisher } from '../../events/event-bus.js';
import type { ArtifactRecord, RecordingRecord } from './recording.js';

/** Lifecycle event names of a recording. */
export type DvrEventName = 'dvr.started' | 'dvr.updated' | 'dvr.stopped' | 'dvr.failed' | 'dvr.deleted';

/** Processing stages. */
export type ProcessingStage = 'processing.started' | 'processing.completed' | 'processing.failed';

/** Publishes recording events (a no-op without a bus). */
export class RecordingEvents {
  constructor(
    private readonly bus: EventPublisher | undefined,
    private readonly nodeId: string,
  ) {}

  /** A recording lifecycle change. */
  dvr(name: DvrEventName, recording: RecordingRecord, error?: string): void {
    this.bus?.publish(name, {
      tenantId: recording.tenantId,
      streamId: recording.streamId,
      dvrHash: recording.dvrHash,
      playbackId: recording.playbackId,
      manifestPath: `/play/${recording.playbackId}/cmaf/index.m3u8`,
      startedAt: recording.startedAt.toISOString(),
      ...(recording.endedAt ? { endedAt: recording.endedAt.toISOString() } : {}),
      sizeBytes: recording.sizeBytes,
      segmentCount: recording.segmentCount,
      ...(error ? { error } : {}),
      nodeId: this.nodeId,
    });
  }

  /** An artifact was created, its renditions stored, or it was deleted. */
  artifact(
    name: 'storage.artifact_created' | 'storage.synced' | 'storage.artifact_deleted',
    artifact: ArtifactRecord,
    localPath?: string,
  ): void {
    this.bus?.publish(name, {
      tenantId: artifact.tenantId,
      streamId: artifact.streamId,
      assetHash: artifact.hash,
      assetType: artifact.kind === 'CLIP' ? 'clip' : 'chapter',
      sizeBytes: artifact.sizeBytes,
      durationMs: artifact.durationMs,
      ...(localPath ? { localPath } : {}),
      nodeId: this.nodeId,
    });
  }

  /** A recording was deleted (deleteDVR or retention): its lifecycle's end, and the artifact gone from storage. */
  recordingDeleted(recording: RecordingRecord): void {
    this.dvr('dvr.deleted', recording);
    this.bus?.publish('storage.artifact_deleted', {
      tenantId: recording.tenantId,
      streamId: recording.streamId,
      assetHash: recording.dvrHash,
      assetType: 'dvr',
      sizeBytes: recording.sizeBytes,
      durationMs: recording.durationMs,
      nodeId: this.nodeId,
    });
  }

  /** Processing of an artifact (renditions, poster, sprite) started, finished or failed. */
  processing(
    stage: ProcessingStage,
    artifact: Pick<ArtifactRecord, 'tenantId' | 'streamId'>,
    processType: 'rendition' | 'thumbnail' | 'sprite',
    details: { durationMs?: number; error?: string } = {},
  ): void {
    this.bus?.publish(stage, {
      tenantId: artifact.tenantId,
      streamId: artifact.streamId,
      processType,
      trackType: 'video',
      ...(stage === 'processing.completed' ? { progressPercent: 100 } : {}),
      ...details,
      nodeId: this.nodeId,
    });
  }
}
