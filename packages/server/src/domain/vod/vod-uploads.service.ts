/**
 * VOD uploads (issue 18, frameworks.md §1.9): createVodUpload validates name, type and size
 * against the limit and the tenant's quota, starts a multipart upload in the store and hands out
 * a presigned URL for every part; the client PUTs the parts straight to storage; completing joins
 * them and hands the asset to processing; aborting (or the expiry sweep) drops the parts; deleting
 * removes every object the asset owns. Lifecycle events go out on the bus.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { EventPublisher } from '../../events/event-bus.js';
import type { VodData } from '../../events/event-map.js';
import {
  MAX_PARTS,
  type MultipartPart,
  type MultipartUploads,
  type UploadedPart,
} from '../../storage/multipart-uploads.js';
import { type ObjectStorage, StorageFailedError } from '../../storage/object-storage.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { fromGlobalId, isUuid } from '../ids.js';
import { newPlaybackId } from '../streams/random-ids.js';
import type { VodStore } from './vod.store.js';
import { sourceKey, type VodAssetRecord, type VodProcessed, type VodStatus } from './vod-asset.js';

/** Extensions of files accepted for upload. */
export const VOD_EXTENSIONS = [
  'mp4',
  'm4v',
  'mov',
  'mkv',
  'webm',
  'ts',
  'mts',
  'm2ts',
  'avi',
  'flv',
  'mpg',
  'mpeg',
  'ogv',
  '3gp',
];
const FILENAME_MAX = 255;
const TITLE_MAX = 200;
const DESCRIPTION_MAX = 2000;
/** Presigned URLs live at most this long (SigV4's limit is 7 days). */
const MAX_URL_SECONDS = 7 * 86_400;

/** Limits of uploads on this deployment. */
export interface VodLimits {
  readonly maxUploadBytes: number;
  /** 0: no quota. */
  readonly tenantQuotaBytes: number;
  readonly partBytes: number;
  readonly uploadExpiryMs: number;
}

/** Input of createVodUpload. */
export interface CreateVodUploadInput {
  readonly filename: string;
  readonly sizeBytes: number;
  readonly contentType?: string | null;
  readonly title?: string | null;
  readonly description?: string | null;
}

/** The session handed to the client. */
export interface VodUploadSession {
  readonly asset: VodAssetRecord;
  readonly parts: readonly { partNumber: number; presignedUrl: string }[];
}

/** What vodUploadStatus answers. */
export interface VodUploadState {
  readonly asset: VodAssetRecord;
  readonly uploadedParts: readonly UploadedPart[];
  readonly missingParts: readonly number[];
}

/** Where processing is queued (jobs/vod-processing). */
export interface VodProcessingQueue {
  /** Queues the asset; the job reports back through processed/failed. */
  enqueue(asset: VodAssetRecord): void;
}

/** What the service needs. */
export interface VodUploadsDeps {
  readonly store: VodStore;
  readonly storage: ObjectStorage;
  readonly uploads: MultipartUploads;
  readonly limits: VodLimits;
  readonly events: EventPublisher;
  readonly queue?: VodProcessingQueue;
  /** This node: assets it completes are processed (and requeued after a restart) here. */
  readonly nodeId?: string;
  readonly now?: () => Date;
}

function optionalText(value: string | null | undefined, field: string, max: number): string | null {
  if (value == null || value.trim() === '') {
    return null;
  }
  if (value.length > max) {
    throw new ValidationError(field, 'length', `${field} must be at most ${max} characters`);
  }
  return value.trim();
}

function validFilename(filename: string): string {
  const name = filename.trim();
  if (name.length === 0 || name.length > FILENAME_MAX) {
    throw new ValidationError('input.filename', 'length', `input.filename must be 1 to ${FILENAME_MAX} characters`);
  }
  if (/[/\\]/.test(name) || name === '.' || name === '..') {
    throw new ValidationError('input.filename', 'format', 'input.filename must be a file name, not a path');
  }
  const extension = name.includes('.') ? (name.split('.').at(-1) ?? '').toLowerCase() : '';
  if (!VOD_EXTENSIONS.includes(extension)) {
    throw new ValidationError(
      'input.filename',
      'type',
      `input.filename must end in a video extension (${VOD_EXTENSIONS.join(', ')})`,
    );
  }
  return name;
}

function validContentType(value: string | null | undefined): string {
  const type = (value ?? '').trim().toLowerCase();
  if (type === '' || type === 'application/octet-stream') {
    return 'application/octet-stream';
  }
  if (!/^video\/[a-z0-9][a-z0-9.+-]{0,100}$/.test(type)) {
    throw new ValidationError('input.contentType', 'type', 'input.contentType must be a video/* type');
  }
  return type;
}

function artifactHash(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}${randomBytes(8).toString('hex')}`;
}

/** Upload sessions and VOD assets of tenants. */
export class VodUploadsService {
  private readonly now: () => Date;

  constructor(private readonly deps: VodUploadsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private publish(
    name:
      | 'vod.requested'
      | 'vod.upload_started'
      | 'vod.processing_started'
      | 'vod.completed'
      | 'vod.failed'
      | 'vod.deleted',
    asset: VodAssetRecord,
  ): void {
    const data: VodData = {
      tenantId: asset.tenantId,
      vodHash: asset.artifactHash,
      playbackId: asset.playbackId,
      uploadId: asset.uploadId,
      filename: asset.filename,
      contentType: asset.contentType,
      sizeBytes: asset.sizeBytes,
      ...(asset.errorMessage ? { error: asset.errorMessage } : {}),
      ...(asset.durationMs != null ? { durationMs: asset.durationMs } : {}),
      ...(asset.width && asset.height ? { resolution: `${asset.width}x${asset.height}` } : {}),
      ...(asset.videoCodec ? { videoCodec: asset.videoCodec } : {}),
      ...(asset.audioCodec ? { audioCodec: asset.audioCodec } : {}),
    };
    this.deps.events.publish(name, data);
  }

  /** Validates the upload, starts the store's multipart upload and presigns every part. */
  async create(tenantId: string, input: CreateVodUploadInput): Promise<VodUploadSession> {
    const { limits } = this.deps;
    const filename = validFilename(input.filename);
    const contentType = validContentType(input.contentType);
    const title = optionalText(input.title, 'input.title', TITLE_MAX);
    const description = optionalText(input.description, 'input.description', DESCRIPTION_MAX);
    const size = input.sizeBytes;
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new ValidationError('input.sizeBytes', 'range', 'input.sizeBytes must be a whole number of bytes ≥ 1');
    }
    if (size > limits.maxUploadBytes) {
      throw new ValidationError('input.sizeBytes', 'max', `input.sizeBytes must be at most ${limits.maxUploadBytes}`);
    }
    if (limits.tenantQuotaBytes > 0) {
      const held = await this.deps.store.bytesHeld(tenantId);
      if (held + size > limits.tenantQuotaBytes) {
        throw new ValidationError(
          'input.sizeBytes',
          'quota',
          `the upload would exceed the storage quota: ${held} of ${limits.tenantQuotaBytes} bytes in use`,
        );
      }
    }
    const mib = 1024 * 1024;
    const partBytes = Math.max(limits.partBytes, Math.ceil(size / MAX_PARTS / mib) * mib);
    const partCount = Math.ceil(size / partBytes);
    const id = randomUUID();
    const storagePrefix = `vod/${id}/`;
    const now = this.now();
    const uploadId = await this.deps.uploads.createMultipart(sourceKey({ storagePrefix }), contentType, partBytes);
    const asset = await this.deps.store.insert({
      id,
      tenantId,
      artifactHash: artifactHash(now),
      playbackId: newPlaybackId(),
      uploadId,
      storageKind: this.deps.storage.kind,
      storagePrefix,
      filename,
      contentType,
      title,
      description,
      sizeBytes: size,
      partBytes,
      partCount,
      expiresAt: new Date(now.getTime() + limits.uploadExpiryMs),
      createdAt: now,
      updatedAt: now,
    });
    this.publish('vod.requested', asset);
    return { asset, parts: await this.presign(asset) };
  }

  private async presign(asset: VodAssetRecord): Promise<{ partNumber: number; presignedUrl: string }[]> {
    const seconds = Math.max(
      1,
      Math.min(MAX_URL_SECONDS, Math.floor((asset.expiresAt.getTime() - this.now().getTime()) / 1000)),
    );
    const key = sourceKey(asset);
    const parts: { partNumber: number; presignedUrl: string }[] = [];
    for (let partNumber = 1; partNumber <= asset.partCount; partNumber++) {
      parts.push({
        partNumber,
        presignedUrl: await this.deps.uploads.presignPart(key, asset.uploadId, partNumber, seconds),
      });
    }
    return parts;
  }

  private async uploading(tenantId: string, uploadId: string): Promise<VodAssetRecord> {
    const asset = await this.deps.store.byUploadId(tenantId, uploadId.trim());
    if (!asset || asset.status === 'DELETED') {
      throw new NotFoundError('VodUpload', uploadId);
    }
    return asset;
  }

  /** Joins the uploaded parts and starts processing; answers the asset (PROCESSING). */
  async complete(tenantId: string, uploadId: string, parts: readonly MultipartPart[]): Promise<VodAssetRecord> {
    parts.forEach((part, index) => {
      if (part.etag.trim() === '' || part.etag.length > 200) {
        throw new ValidationError(
          `input.parts[${index}].etag`,
          'etag',
          `part ${part.partNumber} needs the ETag its upload answered (1 to 200 characters)`,
        );
      }
    });
    const asset = await this.uploading(tenantId, uploadId);
    if (asset.status !== 'UPLOADING') {
      throw new ValidationError('uploadId', 'state', `the upload is ${asset.status}, not UPLOADING`);
    }
    if (asset.expiresAt.getTime() <= this.now().getTime()) {
      throw new ValidationError('uploadId', 'expired', 'the upload session has expired');
    }
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    if (sorted.length !== asset.partCount || sorted.some((part, index) => part.partNumber !== index + 1)) {
      throw new ValidationError('input.parts', 'numbers', `parts must list parts 1 to ${asset.partCount}, each once`);
    }
    const key = sourceKey(asset);
    try {
      await this.deps.uploads.completeMultipart(key, asset.uploadId, sorted);
    } catch (error) {
      if (error instanceof StorageFailedError) {
        throw new ValidationError(
          'input.parts.etag',
          'mismatch',
          `the store refused the parts: ${error.reason.slice(0, 300)}`,
        );
      }
      throw error;
    }
    const stored = await this.deps.storage.head(key);
    const now = this.now();
    if (stored?.size !== asset.sizeBytes) {
      const failed = await this.deps.store.move(
        asset.id,
        ['UPLOADING'],
        'FAILED',
        { errorMessage: `uploaded ${stored?.size ?? 0} bytes, announced ${asset.sizeBytes}`, completedAt: now },
        now,
      );
      if (failed) {
        this.publish('vod.failed', failed);
        return failed;
      }
    }
    const moved = await this.deps.store.move(
      asset.id,
      ['UPLOADING'],
      'PROCESSING',
      { completedAt: now, processingNode: this.deps.nodeId ?? null },
      now,
    );
    if (!moved) {
      throw new ValidationError('uploadId', 'state', 'the upload was completed or aborted meanwhile');
    }
    this.publish('vod.processing_started', moved);
    this.startProcessing(moved);
    return moved;
  }

  /** Aborts an upload in progress: the store drops its parts. */
  async abort(tenantId: string, uploadId: string): Promise<VodAssetRecord> {
    const asset = await this.uploading(tenantId, uploadId);
    if (asset.status !== 'UPLOADING') {
      throw new ValidationError('uploadId', 'state', `the upload is ${asset.status}, not UPLOADING`);
    }
    await this.deps.uploads.abortMultipart(sourceKey(asset), asset.uploadId);
    const moved = await this.deps.store.move(asset.id, ['UPLOADING'], 'DELETED', {}, this.now());
    if (!moved) {
      throw new ValidationError('uploadId', 'state', 'the upload was completed meanwhile');
    }
    this.publish('vod.deleted', moved);
    return moved;
  }

  /** The upload's state with the parts the store holds (while uploading) and those missing. */
  async status(tenantId: string, uploadId: string): Promise<VodUploadState> {
    const asset = await this.uploading(tenantId, uploadId);
    if (asset.status !== 'UPLOADING') {
      return { asset, uploadedParts: [], missingParts: [] };
    }
    const uploadedParts = await this.deps.uploads.listParts(sourceKey(asset), asset.uploadId);
    const have = new Set(uploadedParts.map((part) => part.partNumber));
    const missingParts: number[] = [];
    for (let n = 1; n <= asset.partCount; n++) {
      if (!have.has(n)) {
        missingParts.push(n);
      }
    }
    return { asset, uploadedParts, missingParts };
  }

  /** A tenant's asset by global or raw ID, or artifact hash. */
  async get(tenantId: string, id: string): Promise<VodAssetRecord> {
    const raw = fromGlobalId('VodAsset', id);
    const asset = isUuid(raw)
      ? await this.deps.store.byId(tenantId, raw)
      : /^\d{14}[0-9a-f]{16}$/.test(raw)
        ? await this.deps.store.byHash(tenantId, raw)
        : undefined;
    if (!asset || asset.status === 'DELETED') {
      throw new NotFoundError('VodAsset', id);
    }
    return asset;
  }

  /** A page of the tenant's assets, newest first. */
  list(tenantId: string, limit: number, offset: number): Promise<{ rows: VodAssetRecord[]; total: number }> {
    return this.deps.store.list(tenantId, limit, offset);
  }

  /** Deletes the asset and every object it owns. */
  async delete(tenantId: string, id: string): Promise<VodAssetRecord> {
    const asset = await this.get(tenantId, id);
    if (asset.status === 'UPLOADING') {
      await this.deps.uploads.abortMultipart(sourceKey(asset), asset.uploadId);
    }
    const moved = await this.deps.store.move(asset.id, [asset.status], 'DELETED', {}, this.now());
    if (!moved) {
      throw new ValidationError('id', 'state', 'the asset changed meanwhile; try again');
    }
    await this.deps.storage.deletePrefix(asset.storagePrefix);
    this.publish('vod.deleted', moved);
    return moved;
  }

  /** Aborts and removes every upload session past its expiry; answers how many. */
  async sweepExpired(): Promise<number> {
    let count = 0;
    for (const asset of await this.deps.store.expired(this.now())) {
      await this.deps.uploads.abortMultipart(sourceKey(asset), asset.uploadId);
      const moved = await this.deps.store.move(asset.id, ['UPLOADING'], 'EXPIRED', {}, this.now());
      if (moved) {
        await this.deps.storage.deletePrefix(asset.storagePrefix);
        this.publish('vod.deleted', moved);
        count++;
      }
    }
    return count;
  }

  /** The streaming outputs are stored: the asset is READY (playable) while the rest follows; false when it left PROCESSING. */
  async playable(id: string, result: VodProcessed): Promise<boolean> {
    const moved = await this.deps.store.move(id, ['PROCESSING'], 'READY', result, this.now());
    if (moved) {
      this.publish('vod.completed', moved);
      this.publishProcessing('processing.progressed', moved);
    }
    return moved !== undefined;
  }

  /** Every output is stored: progress 100; false when the asset is no longer READY (deleted). */
  async finished(id: string, outputs: readonly string[], storedBytes: number): Promise<boolean> {
    const moved = await this.deps.store.move(
      id,
      ['READY'],
      'READY',
      { outputs, storedBytes, progressPercent: 100 },
      this.now(),
    );
    if (moved) {
      this.publishProcessing('processing.completed', moved);
    }
    return moved !== undefined;
  }

  /** Processing failed with a reason: the asset is FAILED. */
  async failed(id: string, reason: string): Promise<void> {
    const moved = await this.deps.store.move(
      id,
      ['PROCESSING'],
      'FAILED',
      { errorMessage: reason.slice(0, 1000) },
      this.now(),
    );
    if (moved) {
      this.publish('vod.failed', moved);
      this.publishProcessing('processing.failed', moved);
    }
  }

  /** Processing progressed (0–100). */
  async progressed(id: string, percent: number): Promise<void> {
    const asset = await this.deps.store.progress(id, Math.max(0, Math.min(100, percent)), this.now());
    if (asset) {
      this.publishProcessing('processing.progressed', asset);
    }
  }

  /** Queues the processing of an asset and says so on liveProcessingEvents. */
  private startProcessing(asset: VodAssetRecord): void {
    this.publishProcessing('processing.started', asset);
    this.deps.queue?.enqueue(asset);
  }

  /** Queues again what this node left unfinished when it stopped (PROCESSING, or READY short of 100 %); answers how many. */
  async requeueUnfinished(): Promise<number> {
    const unfinished = await this.deps.store.unfinished(this.deps.nodeId ?? '');
    for (const asset of unfinished) {
      this.startProcessing(asset);
    }
    return unfinished.length;
  }

  private publishProcessing(
    name: 'processing.started' | 'processing.progressed' | 'processing.completed' | 'processing.failed',
    asset: VodAssetRecord,
  ): void {
    this.deps.events.publish(name, {
      tenantId: asset.tenantId,
      processType: 'vod',
      vodHash: asset.artifactHash,
      playbackId: asset.playbackId,
      progressPercent: asset.progressPercent,
      ...(asset.durationMs != null ? { durationMs: asset.durationMs } : {}),
      ...(asset.videoCodec ? { inputCodec: asset.videoCodec } : {}),
      ...(asset.errorMessage ? { error: asset.errorMessage } : {}),
      ...(this.deps.nodeId ? { nodeId: this.deps.nodeId } : {}),
    });
  }
}

/** The states in which an asset can be played. */
export const PLAYABLE: readonly VodStatus[] = ['READY'];
