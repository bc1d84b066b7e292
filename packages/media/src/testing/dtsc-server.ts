/**
 * Test-only DTSC source built from the format description (MistServer `output_dtsc.cpp`,
 * `lib/dtsc.cpp`): greets with `DTCM {cmd: "hi"}`, answers `play` with a `DTSC` header of the
 * media's tracks and `DTP2` packets of its units (looped, paced at `speed` × real time, times in
 * milliseconds), and pings every second, counting the `ok` answers. No MistServer runs here.
 */
import { createServer, type Server } from 'node:net';
import { dtmi } from '../formats/dtsc/dtmi.js';
import { DtscPacketReader, encodeDtscCommand, encodeDtscData, encodeDtscHeader } from '../formats/dtsc/dtsc-packet.js';
import type { MediaUnit } from '../stream/media-unit.js';
import type { Track } from '../stream/track.js';
import { type ListeningTestServer, listenForTest } from './tcp-test-server.js';

/** Options of the test source. */
export interface DtscTestServerOptions {
  readonly tracks: readonly Track[];
  readonly units: readonly MediaUnit[];
  /** Stream name answered; other names get `DTCM error`. */
  readonly streamName: string;
  /** Playback speed relative to real time (default 1). */
  readonly speed?: number;
  /** DTSC track ids given to the tracks (default 1, 2, …; MistServer numbers from 1). */
  readonly dtscIds?: readonly number[];
}

/** A running test source. */
export interface DtscTestServer extends ListeningTestServer {
  /** `play` commands received, with the stream names asked for. */
  readonly plays: string[];
  /** `ok` answers to pings received. */
  pongs(): number;
}

const CODEC_NAMES: Record<string, string> = { h264: 'H264', h265: 'HEVC', av1: 'AV1', aac: 'AAC', opus: 'opus' };

function timeMs(unit: MediaUnit, track: Track): number {
  return Math.round((unit.dts * 1000) / track.timescale);
}

/** Starts the source on 127.0.0.1 and an ephemeral port. */
export async function startDtscTestServer(options: DtscTestServerOptions): Promise<DtscTestServer> {
  const plays: string[] = [];
  let pongs = 0;
  const dtscIdOf = (track: Track): number => options.dtscIds?.[options.tracks.indexOf(track)] ?? track.id;
  const header = encodeDtscHeader({
    live: 1,
    version: 4,
    tracks: Object.fromEntries(
      options.tracks.map((track) => {
        const common = {
          trackid: dtscIdOf(track),
          firstms: 0,
          lastms: 0,
          bps: 0,
          init: track.config,
          codec: CODEC_NAMES[track.codec] ?? track.codec,
          type: track.kind,
        };
        const specific =
          track.kind === 'video'
            ? { width: track.width, height: track.height, fpks: Math.round((track.fps ?? 30) * 1000) }
            : { rate: track.sampleRate, size: 16, channels: track.channels };
        return [`${track.kind}_${track.codec}_${dtscIdOf(track)}`, { ...common, ...specific }];
      }),
    ),
  });
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.write(encodeDtscCommand({ cmd: 'hi', version: 'airwave-test-dtsc', pack_method: 2 }));
    const reader = new DtscPacketReader();
    let timer: NodeJS.Timeout | undefined;
    const ping = setInterval(() => socket.write(encodeDtscCommand({ cmd: 'ping' })), 1000);
    socket.on('close', () => {
      clearTimeout(timer);
      clearInterval(ping);
    });
    socket.on('data', (chunk: Buffer) => {
      for (const packet of reader.push(chunk)) {
        if (packet.kind !== 'command') {
          continue;
        }
        const cmd = dtmi.text(packet.body, 'cmd');
        if (cmd === 'ok') {
          pongs++;
        }
        if (cmd !== 'play') {
          continue;
        }
        const name = dtmi.text(packet.body, 'stream') ?? '';
        plays.push(name);
        if (name !== options.streamName) {
          socket.end(encodeDtscCommand({ cmd: 'error', msg: `stream ${name} not found` }));
          return;
        }
        socket.write(header);
        const started = Date.now();
        let loopOffsetMs = 0;
        let index = 0;
        const lastMs = Math.max(
          ...options.units.map((unit) => timeMs(unit, options.tracks.find((t) => t.id === unit.trackId) as Track)),
        );
        const send = (): void => {
          const speed = options.speed ?? 1;
          const due = (Date.now() - started) * speed;
          while (true) {
            const unit = options.units[index];
            if (!unit) {
              index = 0;
              loopOffsetMs += lastMs + 40;
              continue;
            }
            const track = options.tracks.find((candidate) => candidate.id === unit.trackId) as Track;
            const time = timeMs(unit, track) + loopOffsetMs;
            if (time > due) {
              break;
            }
            const offset = Math.round(((unit.pts - unit.dts) * 1000) / track.timescale);
            socket.write(
              encodeDtscData({ trackId: dtscIdOf(track), time, offset, keyframe: unit.key, data: unit.data }),
            );
            index++;
          }
          timer = setTimeout(send, 10);
        };
        send();
      }
    });
  });
  const listening = await listenForTest(server);
  return {
    ...listening,
    plays,
    pongs: () => pongs,
  };
}
