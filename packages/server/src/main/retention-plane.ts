/**
 * Wires retention (frameworks.md §1.10): the API service over the tenant's recordings, clips and
 * VOD assets, and the sweeper that deletes what expired through the services' own removals.
 */
import type { Logger } from '@airwave/media';
import type { Database } from '../db/database.js';
import type { ClipsService } from '../domain/clips/clips.service.js';
import { RecordingsService } from '../domain/recordings/recordings.service.js';
import { RecordingsStore } from '../domain/recordings/recordings.store.js';
import { RetentionService } from '../domain/retention/retention.service.js';
import { RetentionStore } from '../domain/retention/retention.store.js';
import type { StreamsService } from '../domain/streams/streams.service.js';
import type { VodUploadsService } from '../domain/vod/vod-uploads.service.js';
import { RetentionSweeper } from '../jobs/retention/retention-sweeper.js';

/** Retention of a node. */
export interface RetentionPlane {
  readonly service: RetentionService;
  readonly sweeper: RetentionSweeper;
  close(): Promise<void>;
}

/** Builds the retention service and starts the sweeper. */
export function startRetentionPlane(deps: {
  readonly database: Database;
  readonly log: Logger;
  readonly sweepSeconds: number;
  readonly streams: StreamsService;
  readonly recordings: RecordingsService;
  readonly clips: ClipsService;
  readonly vod: VodUploadsService;
}): RetentionPlane {
  const store = new RetentionStore(deps.database.db);
  const recordingsStore = new RecordingsStore(deps.database.db);
  const service = new RetentionService({
    store,
    streamOf: async (tenantId, id) => (await deps.streams.get(tenantId, id)).id,
    assets: {
      DVR: async (tenantId, id) => {
        const recording = await deps.recordings.recording(tenantId, id, 'input.targetId');
        return {
          id: recording.id,
          streamId: recording.streamId,
          since: RecordingsService.isOpen(recording) ? null : (recording.endedAt ?? recording.updatedAt),
        };
      },
      CLIP: async (tenantId, id) => {
        const clip = await deps.clips.get(tenantId, id);
        return { id: clip.id, streamId: clip.streamId, since: clip.createdAt, createdUntil: clip.expiresAt };
      },
      VOD: async (tenantId, id) => {
        const asset = await deps.vod.get(tenantId, id);
        return { id: asset.id, streamId: null, since: asset.completedAt };
      },
    },
    clearCreatedUntil: async (kind, id) => {
      if (kind === 'CLIP') {
        await recordingsStore.updateArtifact(id, { expiresAt: null });
      }
    },
  });
  const sweeper = new RetentionSweeper({
    store,
    log: deps.log.child({ component: 'retention' }),
    intervalMs: deps.sweepSeconds * 1000,
    remove: {
      recording: (recording) => deps.recordings.remove(recording),
      clip: (clip) => deps.clips.remove(clip),
      vod: async (asset) => {
        await deps.vod.delete(asset.tenantId, asset.id);
      },
    },
  });
  sweeper.start();
  return { service, sweeper, close: () => sweeper.close() };
}
