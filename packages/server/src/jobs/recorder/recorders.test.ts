/**
 * The recorders over a real hub, storage and database: a stream of a few hours generated at full
 * speed (not in real time) is cut into hourly chapters on media time; a storage that starts
 * failing stops that recording with the reason and an event while the stream and its other
 * readers go on, and the recording ends completed_partial with what was written.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Hub, type MediaUnit, silentLogger } from '@airwave/media';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '@airwave/media/testing/synthetic-av';
import { ChapterSettings, type ChapterSettingsInput } from '../../domain/recordings/chapter-settings.js';
import type { ArtifactRecord } from '../../domain/recordings/recording.js';
import { RecordingLifecycle } from '../../domain/recordings/recording-lifecycle.js';
import { RecordingsStore } from '../../domain/recordings/recordings.store.js';
import { RetentionStore } from '../../domain/retention/retention.store.js';
import { openStreamTestDatabase, type StreamTestDatabase } from '../../domain/streams/stream-test-support.js';
import { LocalStorage } from '../../storage/local-storage.js';
import { type ObjectAppender, type PutOptions, StorageFailedError } from '../../storage/object-storage.js';
import { Recorders, reportDue } from './recorders.js';

/** Local storage whose writes and appends fail once `failing` is set (a full disk). */
class FailingStorage extends LocalStorage {
  failing = false;

  override async put(key: string, body: Uint8Array | Readable, options?: PutOptions): Promise<void> {
    if (this.failing) {
      throw new StorageFailedError('put', key, 'ENOSPC');
    }
    return super.put(key, body, options);
  }

  override async openAppender(key: string): Promise<ObjectAppender> {
    const appender = await super.openAppender(key);
    return {
      ...appender,
      append: (bytes) =>
        this.failing ? Promise.reject(new StorageFailedError('append', key, 'ENOSPC')) : appender.append(bytes),
    };
  }
}

async function until<T>(check: () => T | undefined | Promise<T | undefined>, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('recorders', () => {
  let t: StreamTestDatabase;
  let tenant: string;
  let dir: string;
  let storage: FailingStorage;
  let store: RecordingsStore;
  const failures: string[] = [];
  let hub: Hub;
  let recorders: Recorders;
  let settings: ChapterSettings;

  before(async () => {
    t = await openStreamTestDatabase({ name: 'pglite' });
    tenant = await t.tenant();
    dir = mkdtempSync(join(tmpdir(), 'airwave-recorders-'));
    storage = new FailingStorage(dir);
    await storage.open();
    store = new RecordingsStore(t.database.db);
    hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
    settings = new ChapterSettings({ store: new RetentionStore(t.database.db), nodeIntervalSeconds: 3600 });
    const lifecycle = new RecordingLifecycle({
      store,
      nodeId: 'test-node',
      renditions: { enqueue: () => undefined },
      log: silentLogger,
      chapterIntervalMs: 3600_000,
      chapterPlanOf: (streamId) => settings.plan(streamId),
    });
    recorders = new Recorders({
      hub,
      storage,
      lifecycle,
      log: silentLogger,
      events: { failed: (_recording, reason) => failures.push(reason) },
    });
  });
  after(async () => {
    await recorders.close();
    hub.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function publishRecorded(name: string, chapters?: ChapterSettingsInput) {
    const stream = await t.streams.create(tenant, { name, record: true });
    if (chapters) {
      await (await settings.checkUpdate(tenant, stream.id, chapters))?.apply();
    }
    const publisher = hub.publish({ streamId: stream.id, playbackId: stream.playbackId }, 'rtmp');
    publisher.setDescription({ tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] });
    const recording = await until(() => recorders.recordingOf(stream.id), 'the recording to start');
    return { stream, publisher, recording };
  }

  async function writeAll(write: (unit: MediaUnit) => void, units: readonly MediaUnit[]) {
    for (let i = 0; i < units.length; i++) {
      write(units[i] as MediaUnit);
      if (i % 5000 === 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  it('cuts a stream of two and a half hours, generated at full speed, into hourly chapters', {
    timeout: 600_000,
  }, async () => {
    const { stream, publisher, recording } = await publishRecorded('long');
    const units = syntheticUnits({ seconds: 9000, frameBytes: 16, gopFrames: 60 });
    await writeAll((unit) => publisher.write(unit), units);
    publisher.close('encoder finished');
    await recorders.stop(stream.id);
    const chapters: ArtifactRecord[] = await store.artifactsOf(recording.id, 'CHAPTER');
    assert.deepEqual(
      chapters.map((chapter) => Math.round(chapter.durationMs / 1000)),
      [3600, 3600, 1800],
    );
    assert.deepEqual(
      chapters.map((chapter) => Math.round(chapter.startOffsetMs / 1000)),
      [0, 3600, 7200],
    );
    for (let i = 1; i < chapters.length; i++) {
      assert.equal(chapters[i]?.firstSegment, (chapters[i - 1]?.lastSegment ?? 0) + 1, 'chapters are contiguous');
    }
    const finished = await store.recording(tenant, recording.id, true);
    assert.equal(finished?.status, 'completed');
    assert.equal(Math.round((finished?.durationMs ?? 0) / 1000), 9000);
  });

  it("follows the stream's own chapter mode: FIXED_INTERVAL at its interval, NONE in one chapter", {
    timeout: 600_000,
  }, async () => {
    const cases: [ChapterSettingsInput, number, number[], string][] = [
      [{ dvrChapterMode: 'FIXED_INTERVAL', dvrChapterIntervalSeconds: 7200 }, 9000, [7200, 1800], 'FIXED_INTERVAL'],
      [{ dvrChapterMode: 'NONE' }, 4000, [4000], 'NONE'],
    ];
    for (const [input, seconds, expected, mode] of cases) {
      const { stream, publisher, recording } = await publishRecorded(`chapters ${mode}`, input);
      await writeAll((unit) => publisher.write(unit), syntheticUnits({ seconds, frameBytes: 16, gopFrames: 60 }));
      publisher.close('encoder finished');
      await recorders.stop(stream.id);
      const chapters = await store.artifactsOf(recording.id, 'CHAPTER');
      assert.deepEqual(
        chapters.map((chapter) => Math.round(chapter.durationMs / 1000)),
        expected,
        mode,
      );
      assert.deepEqual(
        chapters.map((chapter) => chapter.params.mode),
        expected.map(() => mode),
      );
    }
  });

  it('stops a recording whose storage fails, with the reason and an event, while the stream goes on', async () => {
    const { stream, publisher, recording } = await publishRecorded('failing');
    const live = hub.getByStreamId(stream.id);
    assert.ok(live);
    let delivered = 0;
    live.attach({ onUnit: () => delivered++ });
    // 14 s of media close six segments: the row's totals are written at the first and every fifth.
    await writeAll((unit) => publisher.write(unit), syntheticUnits({ seconds: 14, frameBytes: 16 }));
    await until(
      async () => ((await store.recording(tenant, recording.id, true))?.segmentCount ?? 0) >= 3 || undefined,
      'segments',
    );
    storage.failing = true;
    const before = delivered;
    await writeAll((unit) => publisher.write(unit), syntheticUnits({ seconds: 10, startSeconds: 14, frameBytes: 16 }));
    await until(() => failures.find((reason) => reason.includes('ENOSPC')), 'the failure event');
    assert.ok(delivered > before + 500, 'the stream kept delivering units to its other readers');
    await until(() => (recorders.recordingOf(stream.id) === undefined ? true : undefined), 'the recording to stop');
    storage.failing = false;
    const ended = await until(async () => {
      const row = await store.recording(tenant, recording.id, true);
      return row && row.status !== 'recording' ? row : undefined;
    }, 'the recording to end');
    assert.equal(ended.status, 'completed_partial');
    assert.match(ended.errorMessage ?? '', /ENOSPC/);
    assert.ok(ended.segmentCount >= 3);
    assert.equal(hub.getByStreamId(stream.id)?.endReason, undefined, 'the stream is still live');
    publisher.close('done');
  });

  it("puts the totals on the recording's row at the first and fifth segment, then every fifteenth", () => {
    const due = Array.from({ length: 50 }, (_, i) => i + 1).filter(reportDue);
    assert.deepEqual(due, [1, 5, 20, 35, 50]);
  });
});
