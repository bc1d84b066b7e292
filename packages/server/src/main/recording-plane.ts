/**
 * Wires recording: over the node's object storage, the recorders attached to the hub, the chapter
 * rendition jobs, restart recovery of recordings a killed process left open, stored playback and
 * the API service.
 */
import type { Hub, Logger } from '@airwave/media';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { ClipsService } from '../domain/clips/clips.service.js';
import { ChapterSettings } from '../domain/recordings/chapter-settings.js';
import { RecordingEvents } from '../domain/recordings/recording-events.js';
import { RecordingLifecycle } from '../domain/recordings/recording-lifecycle.js';
import { RecordingsService, type VodAssetLister } from '../domain/recordings/recordings.service.js';
import { RecordingsStore } from '../domain/recordings/recordings.store.js';
import { RetentionStore } from '../domain/retention/retention.store.js';
import type { StreamsService } from '../domain/streams/streams.service.js';
import type { EventPublisher } from '../events/event-bus.js';
import { StoredPlayback } from '../http/play/stored/stored-playback.js';
import { Recorders } from '../jobs/recorder/recorders.js';
import { recoverRecordings } from '../jobs/recorder/recovery.js';
import { RenditionJobs } from '../jobs/renditions/artifact-renditions.js';
import { ThumbnailJobs } from '../jobs/thumbnails/thumbnail-jobs.js';
import type { ObjectStorage } from '../storage/object-storage.js';

/** Finished content whose sprite sheet a restart looks for (jobs older than this are not re-checked), ms. */
const THUMBNAIL_RECHECK_MS = 24 * 3600_000;

/** The recording side of a running node. */
export interface RecordingPlane {
  readonly stored: StoredPlayback;
  readonly recorders: Recorders;
  readonly renditions: RenditionJobs;
  readonly thumbnails: ThumbnailJobs;
  /** Streams' chapter settings (dvrChapterMode). */
  readonly chapterSettings: ChapterSettings;
  /** The API service, once the streams service exists. */
  service(streams: StreamsService, vodAssets?: VodAssetLister): RecordingsService;
  /** The clips service, once the streams service exists. */
  clips(streams: StreamsService): ClipsService;
  /** Finalizes what a killed process left open and re-queues the jobs a stop or a kill left undone. */
  recover(): Promise<number>;
  /** Stops every recording (each is finalized) and stops the jobs; what they left undone waits for the next start. */
  close(): Promise<void>;
}

/** Builds the recording plane of a node. */
export async function startRecordingPlane(deps: {
  readonly hub: Hub;
  readonly database: Database;
  readonly config: Config;
  readonly log: Logger;
  readonly nodeId: string;
  /** The node's object storage (local directory or S3), shared with VOD. */
  readonly storage: ObjectStorage;
  readonly bus?: EventPublisher;
}): Promise<RecordingPlane> {
  const events = new RecordingEvents(deps.bus, deps.nodeId);
  const { storage } = deps;
  const store = new RecordingsStore(deps.database.db);
  const thumbnails = new ThumbnailJobs({ storage, log: deps.log, events });
  const renditions = new RenditionJobs({
    storage,
    store,
    log: deps.log,
    events,
    onDone: (artifact, recording) => {
      if (artifact.status === 'ready') {
        thumbnails.artifact(artifact, recording);
      }
    },
  });
  const chapterSettings = new ChapterSettings({
    store: new RetentionStore(deps.database.db),
    nodeIntervalSeconds: deps.config.dvrChapterSeconds,
  });
  const lifecycle = new RecordingLifecycle({
    store,
    nodeId: deps.nodeId,
    renditions,
    log: deps.log,
    chapterIntervalMs: deps.config.dvrChapterSeconds * 1000,
    chapterPlanOf: (streamId) => chapterSettings.plan(streamId),
    events,
  });
  const recorders = new Recorders({
    hub: deps.hub,
    storage,
    lifecycle,
    log: deps.log,
    events: {
      started: (recording) => events.dvr('dvr.started', recording),
      segmentWritten: (recording, segment, totals, reported) => {
        if (reported) {
          events.dvr('dvr.updated', { ...recording, ...totals });
        }
        if (segment.track === 'video') {
          thumbnails.liveSegment(recording, segment);
        }
      },
      finished: (recording) => {
        thumbnails.liveEnded(recording.id);
        thumbnails.recording(recording);
      },
      failed: (recording, reason) => events.dvr('dvr.failed', recording, reason),
    },
  });
  return {
    stored: new StoredPlayback(
      storage,
      (playbackId) => store.contentByPlaybackId(playbackId),
      (playbackId) => store.latestOfStreamPlayback(playbackId),
      deps.config.dvrWindowSeconds,
      (recording) => thumbnails.livePoster(recording.id),
    ),
    recorders,
    renditions,
    thumbnails,
    chapterSettings,
    service: (streams, vodAssets) =>
      new RecordingsService({ store, streams, recorders, storage, events, ...(vodAssets ? { vodAssets } : {}) }),
    clips: (streams) => new ClipsService({ store, streams, storage, renditions, events }),
    recover: async () => {
      const renditionsLeft = await renditions.requeueUnfinished(deps.nodeId);
      if (renditionsLeft > 0) {
        deps.log.info({ renditionsLeft }, 'chapter renditions a previous run left undone start again');
      }
      const recovered = await recoverRecordings({ store, storage, lifecycle, nodeId: deps.nodeId, log: deps.log });
      // One storage HEAD per finished item: in the background, so a start never waits on them.
      const since = new Date(Date.now() - THUMBNAIL_RECHECK_MS);
      void Promise.all([
        store.endedOnNodeSince(deps.nodeId, since),
        store.readyArtifactsOnNodeSince(deps.nodeId, since),
      ])
        .then(([recordings, artifacts]) => thumbnails.requeueMissing(recordings, artifacts))
        .then(
          (imagesLeft) => {
            if (imagesLeft > 0) {
              deps.log.info({ imagesLeft }, 'images a previous run left undone start again');
            }
          },
          (error: unknown) => deps.log.warn({ err: error }, 'could not look for images a previous run left undone'),
        );
      return recovered;
    },
    close: async () => {
      await recorders.close();
      const renditionsLeft = await renditions.stop();
      const imagesLeft = await thumbnails.stop();
      if (renditionsLeft + imagesLeft > 0) {
        deps.log.info(
          { renditionsLeft, imagesLeft },
          'recording jobs stopped by shutdown: the next start resumes them',
        );
      }
    },
  };
}
