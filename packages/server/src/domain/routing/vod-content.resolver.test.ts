import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VodAssetRecord } from '../vod/vod-asset.js';
import { VodContentResolver } from './vod-content.resolver.js';

const asset = (extra: Partial<VodAssetRecord> = {}): VodAssetRecord => ({
  id: 'a1',
  tenantId: 't1',
  artifactHash: 'h',
  playbackId: 'vod123',
  uploadId: 'u1',
  storageKind: 's3',
  storagePrefix: 'vod/a1/',
  filename: 'talk.mp4',
  contentType: 'video/mp4',
  title: 'Talk',
  description: 'A talk',
  sizeBytes: 1000,
  partBytes: 1000,
  partCount: 1,
  status: 'READY',
  progressPercent: 100,
  errorMessage: null,
  durationMs: 6000,
  width: 1280,
  height: 720,
  videoCodec: 'h264',
  audioCodec: 'aac',
  bitrateKbps: 2500,
  storedBytes: 900,
  outputs: ['cmaf', 'hls', 'mp4', 'poster'],
  processingNode: 'fra',
  expiresAt: new Date(),
  completedAt: new Date(),
  createdAt: new Date(),
  updatedAt: new Date(),
  ...extra,
});

const resolverOf = (record: VodAssetRecord | undefined) =>
  new VodContentResolver(async (id) => (record && id === record.playbackId ? record : undefined));

describe('VOD content for viewer routing', () => {
  it('resolves a ready asset in S3 with its outputs and tracks, playable from any node', async () => {
    const content = await resolverOf(asset()).resolve('vod123');
    assert.equal(content?.contentType, 'vod');
    assert.equal(content?.status, 'READY');
    assert.equal(content?.isLive, false);
    assert.equal(content?.title, 'Talk');
    assert.deepEqual(content?.outputs, ['HLS', 'HLS_CMAF', 'DASH', 'MP4']);
    assert.deepEqual(
      content?.tracks.map((track) => [track.type, track.codec, track.width]),
      [
        ['video', 'h264', 1280],
        ['audio', 'aac', null],
      ],
    );
    assert.equal(content?.servedOnlyBy, undefined);
  });

  it('offers an asset in local storage only from the node holding it; nothing to play before it is ready', async () => {
    assert.deepEqual((await resolverOf(asset({ storageKind: 'local' })).resolve('vod123'))?.servedOnlyBy, ['fra']);
    const processing = await resolverOf(asset({ status: 'PROCESSING', outputs: [] })).resolve('vod123');
    assert.equal(processing?.status, 'PROCESSING');
    assert.deepEqual(processing?.outputs, []);
  });

  it('knows no deleted asset and no other id', async () => {
    assert.equal(await resolverOf(asset({ status: 'DELETED' })).resolve('vod123'), undefined);
    assert.equal(await resolverOf(asset()).resolve('other'), undefined);
  });
});
