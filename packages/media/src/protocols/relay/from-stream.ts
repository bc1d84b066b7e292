/**
 * The origin side of the Airwave relay (relay-wire.ts): sends one live stream as relay frames —
 * HELLO, the recent history (as the stream's on-demand packagers are primed: description,
 * units with their arrival times, drops), CAUGHT_UP, then every live change — to one edge.
 * The publisher never waits: when the edge reads too slowly and more than `maxPendingBytes`
 * wait in its socket, units are skipped up to the next video keyframe, and counted. While it
 * relays, the stream counts as watched (its ingest reads are not merged).
 */
import type { LiveStream, StreamSink } from '../../hub/live-stream.js';
import { ReplayClock } from '../../hub/replay-clock.js';
import type { StreamDescription } from '../../stream/track.js';
import {
  encodeDescription,
  encodeEnd,
  encodeHello,
  encodeSignal,
  encodeUnitHeader,
  RELAY_VERSION,
  RelayFrame,
} from './relay-wire.js';

/** Where the frames go (an HTTP response). */
export interface RelayOutput {
  write(chunk: Uint8Array): void;
  /** Bytes written but not yet sent. */
  readonly pending: number;
  /** The stream ended: the body is complete. */
  end(): void;
}

/** Options of one relayed stream. */
export interface RelaySourceOptions {
  /** Bytes allowed to wait in the output before units are skipped (default 48 MiB: the history fits). */
  readonly maxPendingBytes?: number;
  /** Wall clock of live units' arrival (default Date.now). */
  readonly now?: () => number;
}

/** A stream being relayed to one edge. */
export interface RelaySource {
  /** Units skipped because the edge read too slowly. */
  readonly skipped: number;
  /** Stops sending (the edge went away). */
  stop(): void;
}

/** Default of how much may wait in the output. */
export const DEFAULT_MAX_PENDING_BYTES = 48 * 1024 * 1024;

/** Starts relaying `stream` into `out`. */
export function relayStream(stream: LiveStream, out: RelayOutput, options: RelaySourceOptions = {}): RelaySource {
  const maxPending = options.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
  const clock = new ReplayClock(options.now);
  let videoTrackId: number | undefined;
  let skipping = false;
  let skipped = 0;
  let ended = false;
  out.write(encodeHello({ version: RELAY_VERSION, streamId: stream.streamId, playbackId: stream.playbackId }));
  const sink: StreamSink = {
    onDescription(description: StreamDescription) {
      videoTrackId = description.tracks.find((track) => track.kind === 'video')?.id;
      out.write(encodeDescription(description));
    },
    onUnit(unit) {
      const resumesHere = videoTrackId === undefined || (unit.trackId === videoTrackId && unit.key);
      if (out.pending > maxPending || (skipping && !resumesHere)) {
        skipping = true;
        skipped++;
        return;
      }
      skipping = false;
      out.write(encodeUnitHeader(unit, clock.now()));
      out.write(unit.data);
    },
    onInterrupted() {
      out.write(encodeSignal(RelayFrame.interrupted));
    },
    onEnd(reason) {
      if (!ended) {
        ended = true;
        out.write(encodeEnd(reason));
        out.end();
      }
    },
  };
  // The edge's viewers wait for these units: ingest must not batch reads of this stream.
  const unwatch = stream.watch();
  const detach = stream.prime(sink, clock);
  if (!ended) {
    out.write(encodeSignal(RelayFrame.caughtUp));
  }
  return {
    get skipped() {
      return skipped;
    },
    stop() {
      unwatch();
      detach();
    },
  };
}
