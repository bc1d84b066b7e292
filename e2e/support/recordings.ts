/**
 * A recording made without publishing, for tests that need one to exist (tenancy, hostile
 * strings): its row and an index on the service's storage listing a few video segments (no media
 * bytes: anything that reads them fails, which those tests never do).
 */
import { silentLogger } from '@airwave/media';
import { RecordingLifecycle } from '@airwave/server/domain/recordings/recording-lifecycle';
import { RecordingsStore } from '@airwave/server/domain/recordings/recordings.store';
import { SegmentIndexWriter } from '@airwave/server/domain/recordings/segment-index';
import { LocalStorage } from '@airwave/server/storage/local-storage';
import type { TestServer } from '@airwave/server/testing/test-server';

/** A seeded recording. */
export interface SeededRecording {
  readonly id: string;
  readonly dvrHash: string;
  /** Epoch seconds of its first and last recorded instant. */
  readonly startUnix: number;
  readonly endUnix: number;
}

/** Seeds a finished recording of `segments` 2-second video segments ending now on a stream. */
export async function seedRecording(server: TestServer, streamId: string, segments = 3): Promise<SeededRecording> {
  const store = new RecordingsStore(server.running.database.db);
  const tenantId = (await store.recordable(streamId))?.tenantId as string;
  const lifecycle = new RecordingLifecycle({
    store,
    nodeId: 'seed',
    renditions: { enqueue: () => undefined },
    log: silentLogger,
    chapterIntervalMs: 0,
  });
  const recording = await lifecycle.open(streamId, tenantId);
  const index = new SegmentIndexWriter(new LocalStorage(server.running.config.storageDir), recording.storagePrefix);
  const startMs = Date.now() - segments * 2000;
  for (let msn = 0; msn < segments; msn++) {
    await index.append([
      {
        track: 'video',
        msn,
        init: 0,
        timescale: 90_000,
        start: msn * 180_000,
        duration: 180_000,
        ept: msn * 180_000,
        wallMs: startMs + msn * 2000,
        offsetMs: msn * 2000,
        discontinuity: false,
        bytes: 1000,
      },
    ]);
  }
  await index.close();
  await lifecycle.finish(recording.id, { segmentCount: segments, durationMs: segments * 2000, sizeBytes: 0 }, 'seeded');
  return {
    id: recording.id,
    dvrHash: recording.dvrHash,
    startUnix: startMs / 1000,
    endUnix: (startMs + segments * 2000) / 1000,
  };
}

/** Seeds a recording of a stream (global ID `streamGlobalId`) and cuts a clip of it through the API; returns the clip's global ID. */
export async function seedClip(server: TestServer, token: string, streamGlobalId: string): Promise<string> {
  const streamId = Buffer.from(streamGlobalId, 'base64').toString('utf8').split(':')[1] as string;
  await seedRecording(server, streamId);
  const response = await server.graphql<{ createClip: { __typename: string; id?: string } }>(
    `mutation ($input: CreateClipInput!) { createClip(input: $input) { __typename ... on Clip { id } } }`,
    { input: { streamId: streamGlobalId, title: 'seed', mode: 'CLIP_NOW', duration: 2 } },
    token,
  );
  const id = response.data?.createClip.id;
  if (!id) {
    throw new Error(`createClip failed: ${JSON.stringify(response)}`);
  }
  return id;
}
