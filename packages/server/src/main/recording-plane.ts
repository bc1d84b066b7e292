/**
 * Wires recording: over the node's object storage (local or S3), the recorders attached to the hub, the chapter
 * rendition jobs, restart recovery of recordings a killed process left open, stored playback and
 * the API service.
 */
import type { Hub, Logger } from '@airwave/media';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { RecordingLifecycle } from '../domain/recordings/recording-lifecycle.js';
import { RecordingsService } from '../domain/recordings/recordings.service.js';
import { RecordingsStore } from '../domain/recordings/recordings.store.js';
import type { StreamsService } from '../domain/streams/streams.service.js';
import { StoredPlayback } from '../http/play/stored/stored-playback.js';
import { Recorders } from '../jobs/recorder/recorders.js';
import { recoverRecordings } from '../jobs/recorder/recovery.js';
import { RenditionJobs } from '../jobs/renditions/artifact-renditions.js';
import type { ObjectStorage } from '../storage/object-storage.js';

/** The recording side of a running node. */
export interface RecordingPlane {
  readonly stored: StoredPlayback;
  readonly recorders: Recorders;
  readonly renditions: RenditionJobs;
  /** The API service, once the streams service exists. */
  service(streams: StreamsService): RecordingsService;
  /** Finalizes what a killed process left open. */
  recover(): Promise<number>;
  /** Stops every recording and waits for the rendition jobs. */
  close(): Promise<void>;
}

/** Builds the recording plane of a node. */
export async function startRecordingPlane(deps: {
  readonly hub: Hub;
  readonly database: Database;
  readonly config: Config;
  readonly log: Logger;
  readonly nodeId: string;
  /** The node's object storage (openObjectStorage). */
  readonly storage: ObjectStorage;
}): Promise<RecordingPlane> {
  const { storage } = deps;
  const store = new RecordingsStore(deps.database.db);
  const renditions = new RenditionJobs({ storage, store, log: deps.log });
  const lifecycle = new RecordingLifecycle({
    store,
    nodeId: deps.nodeId,
    renditions,
    log: deps.log,
    chapterIntervalMs: deps.config.dvrChapterSeconds * 1000,
  });
  const recorders = new Recorders({ hub: deps.hub, storage, lifecycle, log: deps.log });
  return {
    stored: new StoredPlayback(storage, (playbackId) => store.contentByPlaybackId(playbackId)),
    recorders,
    renditions,
    service: (streams) => new RecordingsService({ store, streams, recorders, storage }),
    recover: () => recoverRecordings({ store, storage, lifecycle, nodeId: deps.nodeId, log: deps.log }),
    close: async () => {
      await recorders.close();
      await renditions.settled();
    },
  };
}
