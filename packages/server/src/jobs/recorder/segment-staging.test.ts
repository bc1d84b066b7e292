/**
 * Staged recording (ADR 0086): a LiveRecorder over the local backend (direct appends) copies each
 * unit into aligned memory on arrival; every stored segment is the packager's segment with one
 * `free` box between styp and moof, and a unit the packager drops sends one segment the cold way
 * (its bytes exactly the packager's) before the staging lines up again. Fed all at once, with no
 * write done between cuts, segments go the cold way and are the same bytes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type MediaUnit, silentLogger } from '@airwave/media';
import { CmafPackager } from '@airwave/media/protocols/shared/cmaf/cmaf-packager';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '@airwave/media/testing/synthetic-av';
import { readSegment } from '../../domain/recordings/segment-bytes.js';
import { readRecordingIndex } from '../../domain/recordings/segment-index.js';
import { LocalStorage } from '../../storage/local-storage.js';
import { LiveRecorder } from './live-recorder.js';

const DESCRIPTION = { tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] };

/** 16 s of 2 s GOPs, with one audio unit going back in time at 7 s (the packager drops it). */
function units(): MediaUnit[] {
  const list = syntheticUnits({ seconds: 16, gopFrames: 60, frameBytes: 3001 });
  const at = list.findIndex((unit) => unit.trackId === 2 && unit.dts >= 7 * 48_000);
  list.splice(at + 1, 0, { trackId: 2, dts: 6 * 48_000, pts: 6 * 48_000, key: true, data: new Uint8Array(20) });
  return list;
}

/** The packager's own segments (gathered pieces joined), by track and msn. */
function reference(list: readonly MediaUnit[]): Map<string, Buffer> {
  const packager = new CmafPackager({
    segmentTargetSeconds: 2,
    partTargetSeconds: 2,
    windowSegments: 100,
    gatherSamples: true,
    log: silentLogger,
  });
  packager.onDescription(DESCRIPTION);
  for (const unit of list) {
    packager.onUnit(unit);
  }
  packager.onEnd('done');
  const out = new Map<string, Buffer>();
  for (const writer of packager.tracks) {
    for (const segment of writer.segments) {
      out.set(`${writer.name}-${segment.msn}`, Buffer.concat(segment.pieces ?? []));
    }
  }
  return out;
}

async function readAll(read: Awaited<ReturnType<typeof readSegment>>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Records `list` (draining after every unit when `realTime`); checks every stored segment's bytes; returns how many were staged and stored. */
async function recordAndCheck(
  list: readonly MediaUnit[],
  realTime: boolean,
): Promise<{ staged: number; segments: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-staging-'));
  try {
    const storage = new LocalStorage(dir);
    await storage.open();
    const failures: string[] = [];
    const recorder = new LiveRecorder(
      storage,
      'rec/',
      { segmentWritten: () => undefined, failed: (reason) => failures.push(reason) },
      silentLogger,
    );
    recorder.onDescription(DESCRIPTION);
    for (const unit of list) {
      recorder.onUnit(unit);
      if (realTime) {
        // As in real time: a segment's write is over before the next one closes.
        await recorder.drain();
      }
    }
    recorder.onEnd('done');
    await recorder.close();
    assert.deepEqual(failures, []);

    const expected = reference(list);
    const index = await readRecordingIndex(storage, 'rec/');
    assert.equal(index.segments.length, expected.size);
    let staged = 0;
    for (const entry of index.segments) {
      const stored = await readAll(await readSegment(storage, 'rec/', entry));
      assert.equal(stored.length, entry.bytes);
      const styp = stored.readUInt32BE(0);
      assert.equal(stored.toString('latin1', 4, 8), 'styp');
      let plain = stored;
      if (stored.toString('latin1', styp + 4, styp + 8) === 'free') {
        staged++;
        const free = stored.readUInt32BE(styp);
        plain = Buffer.concat([stored.subarray(0, styp), stored.subarray(styp + free)]);
      }
      assert.deepEqual(plain, expected.get(`${entry.track}-${entry.msn}`), `${entry.track} segment ${entry.msn}`);
    }
    return { staged, segments: index.segments.length };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('stored segments are the packager’s with a free box after styp; a dropped unit sends one segment the cold way', async () => {
  const { staged, segments } = await recordAndCheck(units(), true);
  assert.equal(staged, segments - 1, 'only the segment with the dropped unit went the cold way');
});

test('fed all at once (no write over between cuts) segments go the cold way, the same bytes', async () => {
  const { staged, segments } = await recordAndCheck(units(), false);
  assert.ok(segments > 10);
  assert.ok(staged < segments);
});
