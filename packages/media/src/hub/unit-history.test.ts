/**
 * A stream's history: whole GOPs bounded by seconds, GOPs and bytes; replays the description in
 * force first, then units, description changes and publisher drops in order, each at its arrival
 * time; the GOP cache of queued readers is unchanged by it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../ports.js';
import type { MediaUnit } from '../stream/media-unit.js';
import type { StreamDescription } from '../stream/track.js';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO, syntheticUnits } from '../testing/synthetic-av.js';
import { Hub } from './hub.js';
import type { StreamSink } from './live-stream.js';
import { ReplayClock } from './replay-clock.js';

const tracks: StreamDescription = { tracks: [SYNTHETIC_VIDEO, SYNTHETIC_AUDIO] };
const grant = { streamId: 's1', playbackId: 'p1' };

interface Event {
  readonly kind: 'description' | 'unit' | 'interrupted' | 'end';
  readonly unit?: MediaUnit;
  readonly at: number;
}

/** A sink recording what it is told and the clock's time then. */
function recorder(clock: ReplayClock): { events: Event[]; sink: StreamSink } {
  const events: Event[] = [];
  return {
    events,
    sink: {
      onDescription: () => events.push({ kind: 'description', at: clock.now() }),
      onUnit: (unit: MediaUnit) => events.push({ kind: 'unit', unit, at: clock.now() }),
      onInterrupted: () => events.push({ kind: 'interrupted', at: clock.now() }),
      onEnd: () => events.push({ kind: 'end', at: clock.now() }),
    },
  };
}

function setup(reconnectWindowMs = 0) {
  const clock = { now: 1_000 };
  const hub = new Hub({ log: silentLogger, reconnectWindowMs, now: () => clock.now });
  const publisher = hub.publish(grant, 'rtmp');
  publisher.stream.retainHistory({ seconds: 6, gops: 2, maxBytes: 1_000_000 });
  publisher.setDescription(tracks);
  const write = (units: readonly MediaUnit[]) => {
    for (const unit of units) {
      clock.now = 1_000 + Math.round((unit.dts / (unit.trackId === 1 ? 90_000 : 48_000)) * 1000);
      publisher.write(unit);
    }
  };
  return { hub, publisher, write, clock };
}

describe('UnitHistory', () => {
  it('keeps whole GOPs covering at least the seconds asked, starting at a keyframe', () => {
    const { hub, publisher, write } = setup();
    write(syntheticUnits({ seconds: 20.5, gopFrames: 30 }));
    assert.deepEqual(publisher.stream.historySize.gops, 7, '6 s before the newest unit takes 7 one-second GOPs');
    const clock = new ReplayClock(() => 0);
    const { events, sink } = recorder(clock);
    publisher.stream.prime(sink, clock);
    assert.equal(events[0]?.kind, 'description');
    const first = events[1]?.unit;
    assert.ok(first?.key && first.trackId === 1, 'the first unit replayed is a video keyframe');
    assert.equal(first.dts, 14 * 90_000);
    assert.equal(events[1]?.at, 15_000, 'the clock reads each unit arrival time while replaying');
    assert.equal(clock.now(), 0, 'and the base clock after');
    const last = events.at(-1)?.unit;
    assert.equal(last?.dts, syntheticUnits({ seconds: 20.5 }).at(-1)?.dts, 'up to the newest unit');
    hub.close();
  });

  it('keeps at least the GOPs asked when they are longer than the seconds', () => {
    const { hub, publisher, write } = setup();
    publisher.stream.retainHistory({ seconds: 1, gops: 4, maxBytes: 10 });
    write(syntheticUnits({ seconds: 30, gopFrames: 90 }));
    assert.equal(publisher.stream.historySize.gops, 4, 'the widest of the limits asked wins');
    hub.close();
  });

  it('never holds more bytes than asked: oldest GOPs go first, a single larger GOP is dropped', () => {
    const { hub, publisher, write } = setup();
    write(syntheticUnits({ seconds: 20, gopFrames: 30, frameBytes: 4_000 }));
    const size = publisher.stream.historySize;
    assert.ok(size.bytes <= 1_000_000, `${size.bytes} bytes held`);
    assert.ok(size.gops >= 7, 'the 6 s asked fit in the bytes');
    const long = syntheticUnits({ seconds: 10, startSeconds: 20, gopFrames: 300, frameBytes: 40_000 });
    write(long);
    assert.deepEqual(publisher.stream.historySize, { bytes: 0, gops: 0 }, 'a 12 MB GOP is not kept');
    const fromKey = long.slice(long.findIndex((unit) => unit.trackId === 1 && unit.key));
    assert.equal(publisher.stream.gopCache.length, fromKey.length, 'the GOP cache of queued readers is unchanged');
    hub.close();
  });

  it('replays description changes and publisher drops where they happened', () => {
    const { hub, publisher, write, clock } = setup(10_000);
    write(syntheticUnits({ seconds: 3, gopFrames: 30 }));
    publisher.close('socket closed');
    clock.now += 1_000;
    const second = hub.publish(grant, 'rtmp');
    second.setDescription(tracks);
    for (const unit of syntheticUnits({ seconds: 3, gopFrames: 30 })) {
      second.write(unit);
    }
    const replay = new ReplayClock();
    const { events, sink } = recorder(replay);
    publisher.stream.prime(sink, replay);
    const kinds = events.map((event) => event.kind).filter((kind, i, all) => kind !== all[i - 1]);
    assert.deepEqual(kinds, ['description', 'unit', 'interrupted', 'description', 'unit']);
    const resumed = events.find((event, i) => event.kind === 'unit' && events[i - 1]?.kind === 'description' && i > 1);
    assert.equal(resumed?.unit?.discontinuity, true, 'the resumed units carry their discontinuity');
    const reader = publisher.stream.openReader();
    assert.equal(reader.length, publisher.stream.gopCache.length, 'a queued reader still starts at the last GOP');
    hub.stop('s1', 'done');
    const ended = recorder(replay);
    publisher.stream.prime(ended.sink, replay);
    assert.equal(ended.events.at(-1)?.kind, 'end', 'an ended stream replays its history, then its end');
    assert.deepEqual(
      ended.events.map((event) => event.kind),
      events.map((event) => event.kind),
      'the same as the sink primed while live, which was told the end as it happened',
    );
  });
});
