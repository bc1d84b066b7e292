import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArtifactRecord, RecordingRecord, StoredContent } from '../recordings/recording.js';
import { StoredContentResolver } from './stored-content.resolver.js';

const recording: RecordingRecord = {
  id: 'r1',
  tenantId: 't1',
  streamId: 's1',
  dvrHash: 'd',
  playbackId: 'rec123',
  status: 'completed',
  nodeId: 'fra',
  storagePrefix: 'rec/r1/',
  startedAt: new Date(),
  endedAt: new Date(),
  durationMs: 60_000,
  sizeBytes: 1000,
  segmentCount: 30,
  errorMessage: null,
  createdAt: new Date(),
  updatedAt: new Date(),
};

const clip: ArtifactRecord = {
  id: 'c1',
  tenantId: 't1',
  streamId: 's1',
  recordingId: 'r1',
  kind: 'CLIP',
  hash: 'h',
  playbackId: 'clip123',
  title: 'Goal',
  description: 'The goal',
  status: 'ready',
  firstSegment: 1,
  lastSegment: 3,
  startUnixMs: 0,
  endUnixMs: 6000,
  startOffsetMs: 2000,
  durationMs: 6000,
  sizeBytes: 100,
  hasGaps: false,
  params: {},
  errorMessage: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  expiresAt: null,
};

const contents: Record<string, StoredContent> = {
  rec123: { playbackId: 'rec123', tenantId: 't1', streamId: 's1', recording, artifact: undefined },
  clip123: { playbackId: 'clip123', tenantId: 't1', streamId: 's1', recording, artifact: clip },
  gone: {
    playbackId: 'gone',
    tenantId: 't1',
    streamId: 's1',
    recording: { ...recording, status: 'deleted' },
    artifact: undefined,
  },
};

const resolverOf = (shared: boolean) => new StoredContentResolver(async (id) => contents[id], shared);

describe('recordings and clips for viewer routing', () => {
  it('resolves a recording as dvr with its CMAF outputs, from the recording node alone in local storage', async () => {
    const content = await resolverOf(false).resolve('rec123');
    assert.equal(content?.contentType, 'dvr');
    assert.equal(content?.status, 'COMPLETED');
    assert.equal(content?.isLive, false);
    assert.deepEqual(content?.outputs, ['HLS_CMAF', 'DASH']);
    assert.deepEqual(content?.servedOnlyBy, ['fra']);
  });

  it('resolves a clip with its title and every rendition, from any node in shared storage', async () => {
    const content = await resolverOf(true).resolve('clip123');
    assert.equal(content?.contentType, 'clip');
    assert.equal(content?.title, 'Goal');
    assert.equal(content?.status, 'READY');
    assert.deepEqual(content?.outputs, ['HLS', 'HLS_CMAF', 'DASH', 'MP4']);
    assert.equal(content?.servedOnlyBy, undefined);
  });

  it('knows no deleted recording and no other id', async () => {
    assert.equal(await resolverOf(true).resolve('gone'), undefined);
    assert.equal(await resolverOf(true).resolve('other'), undefined);
  });
});
