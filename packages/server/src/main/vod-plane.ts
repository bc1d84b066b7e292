/**
 * Wires VOD uploads (issue 18): multipart sessions (the S3 bucket's own, or Airwave's signed part
 * URLs over the local directory), the processing jobs (requeueing what a previous run of this
 * node left unfinished), the upload service and its expiry sweep, and the part upload route of
 * the local backend.
 */
import { join } from 'node:path';
import type { Logger } from '@airwave/media';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { VodStore } from '../domain/vod/vod.store.js';
import { VodUploadsService } from '../domain/vod/vod-uploads.service.js';
import type { EventPublisher } from '../events/event-bus.js';
import { VodPlayback } from '../http/play/vod/vod-playback.js';
import { uploadRoutes } from '../http/uploads/upload-routes.js';
import { VodProcessing } from '../jobs/vod/vod-processing.js';
import { LocalMultipartUploads } from '../storage/local-multipart.js';
import type { OpenedStorage } from '../storage/open-storage.js';

/** How often expired upload sessions are swept. */
const SWEEP_MS = 60_000;

/** The VOD side of a node. */
export interface VodPlane {
  /** The node's object storage (S3 when configured, else `<dataDir>/storage`). */
  readonly opened: OpenedStorage;
  readonly service: VodUploadsService;
  readonly processing: VodProcessing;
  /** Route plugins (the local backend's part uploads). */
  /** Serves READY assets under their playback IDs. */
  readonly playback: VodPlayback;
  readonly routes: readonly ((app: FastifyInstance) => Promise<void> | void)[];
  /** Stops the sweep and waits for running jobs. */
  close(): Promise<void>;
}

/** Builds the VOD plane over the node's storage (opened once in start, shared with recording). */
export async function startVodPlane(deps: {
  readonly config: Config;
  readonly database: Database;
  /** The node's object storage, shared with recording. */
  readonly opened: OpenedStorage;
  readonly events: EventPublisher;
  readonly log: Logger;
  /** Key of the local backend's part URLs (persisted, so URLs survive a restart). */
  readonly uploadKey: string;
  /** This node's HTTP origin (known once it listens). */
  readonly baseUrl: () => string;
  /** This node's ID: what it completes it processes, and requeues after a restart. */
  readonly nodeId: string;
}): Promise<VodPlane> {
  const { config, log } = deps;
  const { opened } = deps;
  const local = opened.s3
    ? undefined
    : new LocalMultipartUploads(join(config.dataDir, 'uploads'), opened.storage, deps.uploadKey, deps.baseUrl);
  const uploads = opened.s3 ?? (local as LocalMultipartUploads);
  let service: VodUploadsService | undefined;
  const processing = new VodProcessing({
    storage: opened.storage,
    log: log.child({ component: 'vod' }),
    concurrency: config.vod.processingConcurrency,
    reports: {
      playable: (id, result) => (service as VodUploadsService).playable(id, result),
      finished: (id, outputs, bytes) => (service as VodUploadsService).finished(id, outputs, bytes),
      failed: (id, reason) => (service as VodUploadsService).failed(id, reason),
      progressed: (id, percent) => (service as VodUploadsService).progressed(id, percent),
    },
  });
  const store = new VodStore(deps.database.db);
  service = new VodUploadsService({
    store,
    storage: opened.storage,
    uploads,
    limits: config.vod,
    events: deps.events,
    queue: processing,
    nodeId: deps.nodeId,
  });
  const requeued = await service.requeueUnfinished();
  if (requeued > 0) {
    log.info({ requeued }, 'VOD processing a previous run left unfinished starts again');
  }
  const sweeper = service;
  const timer = setInterval(() => {
    sweeper.sweepExpired().catch((error: unknown) => log.warn({ err: error }, 'VOD upload expiry sweep failed'));
  }, SWEEP_MS);
  timer.unref();
  return {
    opened,
    service,
    processing,
    playback: new VodPlayback(opened.storage, (playbackId) => store.byPlaybackId(playbackId)),
    routes: local ? [uploadRoutes(local)] : [],
    close: async () => {
      clearInterval(timer);
      const left = await processing.stop();
      if (left > 0) {
        log.info({ left }, 'VOD processing stopped by shutdown: the next start resumes it');
      }
    },
  };
}
