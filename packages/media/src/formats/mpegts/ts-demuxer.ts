/**
 * MPEG-2 transport stream demultiplexer (ISO/IEC 13818-1 §2.4) for one program, fed a byte stream
 * in arbitrary chunks (SRT payloads, UDP datagrams, an ffmpeg pipe):
 *
 * ```ts
 * const demuxer = new TsDemuxer({ setDescription(d) {…}, write(unit) {…} }); // a hub Publisher fits
 * socket.on('data', (chunk) => demuxer.push(chunk));
 * socket.on('end', () => demuxer.end());
 * demuxer.stats; // packets, continuityErrors, droppedPes, lastPcr, …
 * ```
 *
 * What it does: 188-byte packets found and re-found after garbage (sync loss); adaptation fields
 * (§2.4.3.4) with PCR and discontinuity_indicator; per-PID continuity counters (an error drops the
 * PES in progress and is counted); the PAT's first program, its PMT and every PMT change (streams
 * added, removed or re-typed); PES reassembly (§2.4.3.6) with PTS/DTS unwrapped across the 2^33
 * wrap and re-based so the program starts at 1 s (see ProgramClock); elementary streams H.264,
 * H.265 (es-annexb), AAC in ADTS and LATM, Opus (es-opus); AC-3, E-AC-3, MPEG audio/video and
 * others are left out with a reason given to `sink.unsupported`.
 *
 * Output: `setDescription` once every stream of the PMT has its configuration (or after
 * `describeWaitSeconds` of stream time with what is known), then again whenever a track is added,
 * removed or changes configuration; `write` for each access unit of a described track (video in
 * AVCC form without parameter sets, raw AAC frames, Opus packets; see MediaUnit). Units before the
 * first description are held (up to `maxPendingUnits`). Track ids are stable per PID, from 1.
 *
 * Bad input never throws: it is counted in `stats` and reported through `sink.dropped`. `push`
 * keeps no reference to the chunk after it returns.
 */
import { ByteSlab } from '../../bits/byte-slab.js';
import { bytesEqual } from '../../bits/bytes.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription, Track } from '../../stream/track.js';
import { AdtsEsReader } from './es-adts.js';
import { AnnexBEsReader } from './es-annexb.js';
import { LatmEsReader } from './es-latm.js';
import { OpusEsReader } from './es-opus.js';
import type { EsOutput, EsReader } from './es-reader.js';
import { TS_PACKET_SIZE } from './packet-writer.js';
import { TIMESTAMP_MODULO } from './pes.js';
import { PesAssembler, parsePesPacket } from './pes-reader.js';
import { ProgramClock } from './program-clock.js';
import { type ProgramMap, parsePat, parsePmt, SectionAssembler } from './psi-reader.js';
import { classifyStream, type SupportedStream } from './stream-types.js';

/** Where the demuxer delivers the program (a hub Publisher satisfies the first two). */
export interface TsDemuxerSink {
  /** The tracks changed (first description, a track added, removed or reconfigured). */
  setDescription(description: StreamDescription): void;
  /** One access unit of a described track. */
  write(unit: MediaUnit): void;
  /** An elementary stream left out, and why (once per PID and stream type). */
  unsupported?(pid: number, reason: string): void;
  /** Something in the input was dropped, and why (as often as it happens: rate-limit any logging). */
  dropped?(reason: string): void;
}

/** Limits of a demuxer. */
export interface TsDemuxerOptions {
  /** Largest PES packet accepted (default 8 MiB). */
  readonly maxPesBytes?: number;
  /** Stream time to wait for every stream's configuration before describing the known ones (default 2 s). */
  readonly describeWaitSeconds?: number;
  /** Most units held before the first description (default 2000); older ones are dropped. */
  readonly maxPendingUnits?: number;
}

/** Counters of one demuxer. */
export interface TsDemuxerStats {
  bytes: number;
  packets: number;
  /** Bytes skipped to find the next sync byte. */
  skippedBytes: number;
  /** Packets with transport_error_indicator set. */
  transportErrors: number;
  /** continuity_counter gaps on PIDs of the program (without a signalled discontinuity). */
  continuityErrors: number;
  /** Packets repeating the previous continuity_counter of their PES PID (§2.4.3.3 duplicates), skipped. */
  duplicatePackets: number;
  scrambledPackets: number;
  /** PES packets dropped: truncated, oversized, bad header, scrambled. */
  droppedPes: number;
  /** PSI sections dropped: bad CRC, too long, truncated. */
  droppedSections: number;
  units: number;
  /** Frames or payloads an elementary stream reader could not use. */
  droppedUnits: number;
  descriptions: number;
  /** The last PCR base seen (90 kHz, 33 bits), -1 before any. */
  lastPcr: number;
}

const SYNC_BYTE = 0x47;
/**
 * Slab that units' data is cut from: below glibc's mmap threshold (128 KiB), as RTMP's messages
 * (a unit above half of it, a large key frame, gets memory of its own).
 */
const UNIT_SLAB_BYTES = 64 * 1024;
const PAT_PID = 0x0000;
const NULL_PID = 0x1fff;
const PID_COUNT = 0x2000;

/** What the demuxer does with one PID's payloads. */
type PidHandler =
  | { readonly type: 'psi'; readonly sections: SectionAssembler }
  | {
      readonly type: 'pes';
      readonly kind: SupportedStream['kind'];
      readonly trackId: number;
      readonly assembler: PesAssembler;
    };

/** Demultiplexes one program of a transport stream into a StreamDescription and MediaUnits. */
export class TsDemuxer {
  readonly stats: TsDemuxerStats = {
    bytes: 0,
    packets: 0,
    skippedBytes: 0,
    transportErrors: 0,
    continuityErrors: 0,
    duplicatePackets: 0,
    scrambledPackets: 0,
    droppedPes: 0,
    droppedSections: 0,
    units: 0,
    droppedUnits: 0,
    descriptions: 0,
    lastPcr: -1,
  };
  private readonly handlers = new Map<number, PidHandler>();
  private readonly continuity = new Int8Array(PID_COUNT).fill(-1);
  private readonly partial = new Uint8Array(TS_PACKET_SIZE);
  private partialLength = 0;
  private programNumber: number | undefined;
  private pmtPid: number | undefined;
  private pmtSection: Uint8Array | undefined;
  private readonly clock = new ProgramClock();
  /** Track id per PID, kept across PMT changes. */
  private readonly trackIds = new Map<number, number>();
  /** PIDs of the supported streams of the current PMT, in PMT order. */
  private streamPids: number[] = [];
  private readonly tracks = new Map<number, Track>();
  private readonly unsupportedSeen = new Set<string>();
  private described: StreamDescription | undefined;
  private pending: MediaUnit[] = [];
  private pendingSince: number | undefined;
  private readonly maxPesBytes: number;
  private readonly describeWaitSeconds: number;
  private readonly maxPendingUnits: number;
  private readonly out: EsOutput = {
    track: (track) => this.onTrack(track),
    unit: (unit) => this.onUnit(unit),
    drop: (reason) => {
      this.stats.droppedUnits++;
      this.sink.dropped?.(reason);
    },
    bytes: (size) => this.unitMemory.takeBytes(size),
  };
  /** Where units' data is written: a slab shared by the units of a few hundred ms (one allocation per slab, not per unit). */
  private readonly unitMemory = new ByteSlab(UNIT_SLAB_BYTES);

  constructor(
    private readonly sink: TsDemuxerSink,
    options: TsDemuxerOptions = {},
  ) {
    this.maxPesBytes = options.maxPesBytes ?? 8 * 1024 * 1024;
    this.describeWaitSeconds = options.describeWaitSeconds ?? 2;
    this.maxPendingUnits = options.maxPendingUnits ?? 2000;
    this.handlers.set(PAT_PID, {
      type: 'psi',
      sections: new SectionAssembler(
        (section) => this.onPat(section),
        (reason) => this.droppedSection(reason),
      ),
    });
  }

  /** The tracks last described, once there are any. */
  get description(): StreamDescription | undefined {
    return this.described;
  }

  /** Feeds the next bytes of the stream (any length, any alignment). */
  push(bytes: Uint8Array): void {
    // A plain view of a Buffer: its subarrays (one per PES piece) are cheaper than a Buffer's.
    const chunk =
      bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    this.stats.bytes += chunk.length;
    let at = 0;
    if (this.partialLength > 0) {
      const need = TS_PACKET_SIZE - this.partialLength;
      if (chunk.length < need) {
        this.partial.set(chunk, this.partialLength);
        this.partialLength += chunk.length;
        return;
      }
      this.partial.set(chunk.subarray(0, need), this.partialLength);
      this.partialLength = 0;
      this.packet(this.partial, 0);
      at = need;
    }
    const length = chunk.length;
    while (at < length) {
      if (chunk[at] !== SYNC_BYTE) {
        const next = this.findSync(chunk, at);
        this.stats.skippedBytes += next - at;
        this.sink.dropped?.(`${next - at} bytes without a sync byte skipped`);
        at = next;
        continue;
      }
      if (at + TS_PACKET_SIZE > length) {
        this.partial.set(chunk.subarray(at), 0);
        this.partialLength = length - at;
        return;
      }
      this.packet(chunk, at);
      at += TS_PACKET_SIZE;
    }
  }

  /** The stream ended: completes the PES packets in progress and describes what is known. */
  end(): void {
    for (const handler of this.handlers.values()) {
      if (handler.type === 'pes') {
        handler.assembler.finish();
      }
    }
    if (!this.described && this.pending.length > 0) {
      this.describe();
    }
  }

  /** The next position that starts a packet followed by another sync byte (or the end). */
  private findSync(chunk: Uint8Array, from: number): number {
    for (let at = from + 1; at < chunk.length; at++) {
      if (
        chunk[at] === SYNC_BYTE &&
        (at + TS_PACKET_SIZE >= chunk.length || chunk[at + TS_PACKET_SIZE] === SYNC_BYTE)
      ) {
        return at;
      }
    }
    return chunk.length;
  }

  /** One 188-byte packet at `o` (its first byte is the sync byte). */
  private packet(p: Uint8Array, o: number): void {
    const stats = this.stats;
    stats.packets++;
    const b1 = p[o + 1] as number;
    const b3 = p[o + 3] as number;
    const pid = ((b1 & 0x1f) << 8) | (p[o + 2] as number);
    if (pid === NULL_PID) {
      return;
    }
    const handler = this.handlers.get(pid);
    if (b1 & 0x80) {
      stats.transportErrors++;
      this.discard(handler);
      return;
    }
    const control = (b3 >>> 4) & 3;
    let payloadStart = o + 4;
    let discontinuity = false;
    if (control & 2) {
      const fieldLength = p[o + 4] as number;
      if (fieldLength > (control === 2 ? 183 : 182)) {
        stats.transportErrors++;
        this.discard(handler);
        return;
      }
      if (fieldLength > 0) {
        const flags = p[o + 5] as number;
        discontinuity = (flags & 0x80) !== 0;
        if (flags & 0x10 && fieldLength >= 7) {
          stats.lastPcr =
            (p[o + 6] as number) * 2 ** 25 +
            (((p[o + 7] as number) << 17) |
              ((p[o + 8] as number) << 9) |
              ((p[o + 9] as number) << 1) |
              ((p[o + 10] as number) >>> 7));
        }
      }
      payloadStart = o + 5 + fieldLength;
    }
    if (!handler || (control & 1) === 0) {
      return;
    }
    const counter = b3 & 0x0f;
    const last = this.continuity[pid] as number;
    this.continuity[pid] = counter;
    if (last >= 0 && !discontinuity) {
      if (counter === last && handler.type === 'pes') {
        stats.duplicatePackets++;
        return;
      }
      if (counter !== last && counter !== ((last + 1) & 0x0f)) {
        stats.continuityErrors++;
        this.discard(handler);
      }
    }
    if (b3 & 0xc0) {
      stats.scrambledPackets++;
      this.discard(handler);
      return;
    }
    const end = o + TS_PACKET_SIZE;
    if (handler.type === 'psi') {
      handler.sections.push(p, payloadStart, end, (b1 & 0x40) !== 0);
    } else if (b1 & 0x40) {
      handler.assembler.start(p, payloadStart, end);
    } else {
      handler.assembler.add(p, payloadStart, end);
    }
  }

  private discard(handler: PidHandler | undefined): void {
    if (handler?.type === 'psi') {
      handler.sections.discard();
    } else {
      handler?.assembler.discard();
    }
  }

  private droppedSection(reason: string): void {
    this.stats.droppedSections++;
    this.sink.dropped?.(`PSI section dropped: ${reason}`);
  }

  private onPat(section: Uint8Array): void {
    const programs = parsePat(section);
    if (!programs || programs.size === 0) {
      return;
    }
    const chosen =
      this.programNumber !== undefined && programs.has(this.programNumber)
        ? this.programNumber
        : (programs.keys().next().value as number);
    const pmtPid = programs.get(chosen) as number;
    if (chosen === this.programNumber && pmtPid === this.pmtPid) {
      return;
    }
    if (this.pmtPid !== undefined && this.handlers.get(this.pmtPid)?.type === 'psi') {
      this.handlers.delete(this.pmtPid);
    }
    this.programNumber = chosen;
    this.pmtPid = pmtPid;
    this.pmtSection = undefined;
    if (pmtPid === PAT_PID || pmtPid === NULL_PID) {
      return;
    }
    this.removeStream(pmtPid);
    this.continuity[pmtPid] = -1;
    this.handlers.set(pmtPid, {
      type: 'psi',
      sections: new SectionAssembler(
        (pmt) => this.onPmt(pmt),
        (reason) => this.droppedSection(reason),
      ),
    });
  }

  private onPmt(section: Uint8Array): void {
    if (this.pmtSection && bytesEqual(this.pmtSection, section)) {
      return;
    }
    const map = parsePmt(section);
    if (!map || map.programNumber !== this.programNumber) {
      return;
    }
    this.pmtSection = section;
    this.applyProgramMap(map);
  }

  /** Makes the PID handlers follow a new program map. */
  private applyProgramMap(map: ProgramMap): void {
    const pids: number[] = [];
    for (const entry of map.streams) {
      const pid = entry.pid;
      if (pid === PAT_PID || pid === NULL_PID || pid === this.pmtPid || pids.includes(pid)) {
        continue;
      }
      const stream = classifyStream(entry, map.programDescriptors);
      if (stream.kind === 'unsupported') {
        this.removeStream(pid);
        const key = `${pid}:${entry.streamType}`;
        if (!this.unsupportedSeen.has(key)) {
          this.unsupportedSeen.add(key);
          this.sink.unsupported?.(pid, stream.reason);
        }
        continue;
      }
      pids.push(pid);
      const existing = this.handlers.get(pid);
      if (existing?.type === 'pes' && existing.kind === stream.kind) {
        continue;
      }
      this.removeStream(pid);
      this.addStream(pid, stream);
    }
    for (const pid of this.streamPids) {
      if (!pids.includes(pid)) {
        this.removeStream(pid);
      }
    }
    this.streamPids = pids;
    if (this.described) {
      this.describeIfChanged();
    }
  }

  private addStream(pid: number, stream: SupportedStream): void {
    let trackId = this.trackIds.get(pid);
    if (trackId === undefined) {
      trackId = this.trackIds.size + 1;
      this.trackIds.set(pid, trackId);
    }
    const reader = readerFor(stream, trackId);
    this.continuity[pid] = -1;
    this.handlers.set(pid, {
      type: 'pes',
      kind: stream.kind,
      trackId,
      assembler: new PesAssembler(
        this.maxPesBytes,
        (bytes) => this.onPes(reader, bytes),
        (reason) => {
          this.stats.droppedPes++;
          this.sink.dropped?.(`PES on PID ${pid} dropped: ${reason}`);
        },
      ),
    });
  }

  private removeStream(pid: number): void {
    const handler = this.handlers.get(pid);
    if (handler?.type !== 'pes') {
      return;
    }
    handler.assembler.finish();
    this.handlers.delete(pid);
    this.tracks.delete(handler.trackId);
  }

  private onPes(reader: EsReader, bytes: Uint8Array): void {
    const pes = parsePesPacket(bytes);
    if (typeof pes === 'string') {
      this.stats.droppedPes++;
      this.sink.dropped?.(`PES dropped: ${pes}`);
      return;
    }
    let dts: number | undefined;
    let pts: number | undefined;
    if (pes.dts !== undefined && pes.pts !== undefined) {
      dts = this.clock.map(pes.dts);
      pts = dts + wrappedDifference(pes.pts, pes.dts);
    }
    reader.pes(pes.payload, pts, dts, this.out);
  }

  private onTrack(track: Track): void {
    this.tracks.set(track.id, track);
    if (this.described) {
      this.describeIfChanged();
    }
  }

  private onUnit(unit: MediaUnit): void {
    if (this.described) {
      this.stats.units++;
      this.sink.write(unit);
      return;
    }
    const timescale = this.tracks.get(unit.trackId)?.timescale ?? 1;
    const seconds = unit.dts / timescale;
    this.pendingSince ??= seconds;
    this.pending.push(unit);
    if (this.pending.length > this.maxPendingUnits) {
      this.pending.shift();
      this.stats.droppedUnits++;
    }
    const allKnown = this.streamPids.every((pid) => {
      const handler = this.handlers.get(pid);
      return handler?.type === 'pes' && this.tracks.has(handler.trackId);
    });
    if (allKnown || seconds - this.pendingSince >= this.describeWaitSeconds) {
      this.describe();
    }
  }

  /** The known tracks of the current streams, in PMT order. */
  private currentTracks(): Track[] {
    const tracks: Track[] = [];
    for (const pid of this.streamPids) {
      const handler = this.handlers.get(pid);
      const track = handler?.type === 'pes' ? this.tracks.get(handler.trackId) : undefined;
      if (track) {
        tracks.push(track);
      }
    }
    return tracks;
  }

  private describe(): void {
    const tracks = this.currentTracks();
    if (tracks.length === 0) {
      return;
    }
    this.described = { tracks };
    this.stats.descriptions++;
    this.sink.setDescription(this.described);
    const pending = this.pending;
    this.pending = [];
    this.pendingSince = undefined;
    const ids = new Set(tracks.map((track) => track.id));
    for (const unit of pending) {
      if (ids.has(unit.trackId)) {
        this.stats.units++;
        this.sink.write(unit);
      }
    }
  }

  private describeIfChanged(): void {
    const tracks = this.currentTracks();
    const before = this.described?.tracks ?? [];
    if (tracks.length === before.length && tracks.every((track, index) => track === before[index])) {
      return;
    }
    if (tracks.length === 0) {
      return;
    }
    this.described = { tracks };
    this.stats.descriptions++;
    this.sink.setDescription(this.described);
  }
}

function readerFor(stream: SupportedStream, trackId: number): EsReader {
  switch (stream.kind) {
    case 'h264':
    case 'h265':
      return new AnnexBEsReader(stream.kind, trackId);
    case 'adts':
      return new AdtsEsReader(trackId);
    case 'latm':
      return new LatmEsReader(trackId);
    case 'opus':
      return new OpusEsReader(trackId, stream.channels);
  }
}

/** a - b for two 33-bit timestamps, taken the short way round the wrap. */
function wrappedDifference(a: number, b: number): number {
  let difference = a - b;
  if (difference >= TIMESTAMP_MODULO / 2) {
    difference -= TIMESTAMP_MODULO;
  } else if (difference < -TIMESTAMP_MODULO / 2) {
    difference += TIMESTAMP_MODULO;
  }
  return difference;
}
