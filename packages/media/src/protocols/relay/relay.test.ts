import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParseError } from '../../errors.js';
import { Hub } from '../../hub/hub.js';
import type { LiveStream } from '../../hub/live-stream.js';
import { ReplayClock } from '../../hub/replay-clock.js';
import { silentLogger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import { SYNTHETIC_AUDIO, SYNTHETIC_VIDEO } from '../../testing/synthetic-av.js';
import { relayStream } from './from-stream.js';
import { RelayDecoder, type RelayEvent } from './relay-wire.js';
import { RelayIntoHub } from './to-stream.js';

const video = SYNTHETIC_VIDEO;
const audio = SYNTHETIC_AUDIO;
const grant = { streamId: '3f0a6f7e-2c1d-4b8a-9e5f-1a2b3c4d5e6f', playbackId: 'relayed' };

function unit(trackId: number, i: number, key = false): MediaUnit {
  const scale = trackId === 1 ? 3000 : 1024;
  return {
    trackId,
    dts: 10 * 90_000 + i * scale,
    pts: 10 * 90_000 + i * scale,
    key,
    data: new Uint8Array([trackId, i, 7]),
  };
}

/** An output collecting frames, delivered to `decoder` in chunks of `split` bytes. */
function pipeTo(decoder: RelayDecoder, events: RelayEvent[], split: number) {
  let ended = false;
  return {
    pending: 0,
    write(chunk: Uint8Array) {
      for (let at = 0; at < chunk.byteLength; at += split) {
        events.push(...decoder.push(chunk.subarray(at, at + split)));
      }
    },
    end() {
      ended = true;
    },
    get ended() {
      return ended;
    },
  };
}

describe('Airwave relay', () => {
  it('carries description, history with arrival times, live units, drops and the end from origin to edge', () => {
    let originClock = 1_000_000;
    const origin = new Hub({ log: silentLogger, now: () => originClock });
    const publisher = origin.publish(grant, 'rtmp');
    const stream = publisher.stream as LiveStream;
    stream.retainHistory({ seconds: 30, gops: 10, maxBytes: 1 << 20 });
    publisher.setDescription({ tracks: [video, audio] });
    publisher.write(unit(1, 0, true));
    originClock += 40;
    publisher.write(unit(2, 0, true));
    const events: RelayEvent[] = [];
    const decoder = new RelayDecoder();
    const out = pipeTo(decoder, events, 7);
    assert.equal(stream.watched, false);
    const source = relayStream(stream, out, { now: () => originClock });
    assert.equal(stream.watched, true, 'a relayed stream counts as watched (no merged reads)');
    assert.deepEqual(
      events.map((event) => event.type),
      ['hello', 'description', 'unit', 'unit', 'caught-up'],
    );
    const pinned: (number | undefined)[] = [];
    const edgeClock = new ReplayClock(() => 5);
    const edge = new Hub({ log: silentLogger, now: edgeClock.now });
    const received: { unit: MediaUnit; at: number }[] = [];
    edge.addOutput((live) => {
      live.attach({ onUnit: (each) => received.push({ unit: each, at: edgeClock.now() }) });
      return { close() {} };
    });
    const into = new RelayIntoHub(edge, grant, (at) => {
      pinned.push(at);
      edgeClock.pin(at);
    });
    const progress = events.map((event) => into.apply(event));
    assert.equal(progress.at(-1), 'caught-up');
    const relayed = edge.getByPlaybackId('relayed');
    assert.ok(relayed);
    assert.deepEqual(relayed.description?.tracks, [video, audio]);
    assert.deepEqual(
      received.map((item) => [item.unit.trackId, item.unit.dts, [...item.unit.data], item.at]),
      [
        [1, 900_000, [1, 0, 7], 1_000_000],
        [2, 900_000, [2, 0, 7], 1_000_040],
      ],
    );
    events.length = 0;
    originClock += 33;
    publisher.write(unit(1, 1));
    publisher.close('encoder left');
    for (const event of events) {
      into.apply(event);
    }
    assert.deepEqual(received.at(-1)?.at, 1_000_073);
    assert.equal(into.publishing, false, 'the edge waits for the publisher like the origin');
    events.length = 0;
    origin.stop(grant.streamId, 'deleted');
    assert.deepEqual(
      events.map((event) => event.type),
      ['end'],
    );
    assert.equal(out.ended, true);
    assert.equal(into.apply(events[0] as RelayEvent), 'ended');
    assert.equal(edge.getByPlaybackId('relayed'), undefined);
    assert.equal(source.skipped, 0);
    source.stop();
    assert.equal(stream.watched, false);
  });

  it('skips to the next video keyframe while the edge reads too slowly', () => {
    const origin = new Hub({ log: silentLogger });
    const publisher = origin.publish(grant, 'rtmp');
    publisher.setDescription({ tracks: [video] });
    const types: number[] = [];
    const out = { pending: 0, write: (chunk: Uint8Array) => types.push(chunk[0] as number), end() {} };
    const source = relayStream(publisher.stream, out, { maxPendingBytes: 100 });
    out.pending = 1000;
    publisher.write(unit(1, 0, true));
    out.pending = 0;
    publisher.write(unit(1, 1));
    publisher.write(unit(1, 2, true));
    assert.equal(source.skipped, 2);
    source.stop();
  });

  it('refuses malformed bodies with a ParseError', () => {
    const frame = (type: number, body: string) => {
      const bytes = new TextEncoder().encode(body);
      const out = new Uint8Array(5 + bytes.length);
      new DataView(out.buffer).setUint8(0, type);
      new DataView(out.buffer).setUint32(1, bytes.length);
      out.set(bytes, 5);
      return out;
    };
    const hello = frame(1, JSON.stringify({ version: 1, streamId: 's', playbackId: 'p' }));
    const cases = [
      frame(2, '{"tracks":[]}'),
      frame(1, '{"version":2,"streamId":"s","playbackId":"p"}'),
      new Uint8Array([9, 0, 0, 0, 0]),
      new Uint8Array([3, 0xff, 0xff, 0xff, 0xff]),
    ];
    for (const bytes of cases) {
      assert.throws(() => new RelayDecoder().push(bytes), ParseError);
    }
    const decoder = new RelayDecoder();
    decoder.push(hello);
    assert.throws(() => decoder.push(frame(2, '{"tracks":[{"kind":"video","id":1,"codec":"mpeg2"}]}')), ParseError);
    assert.throws(() => new RelayDecoder().push(new Uint8Array([...hello, ...hello])), ParseError);
  });
});
