/**
 * WHEP viewers per core on one stream, against the same number of LL-HLS viewers: a 720p30
 * ~3 Mb/s H.264 stream without B-frames (plus AAC, transcoded once to Opus for the WebRTC viewers)
 * published by ffmpeg over RTMP; N werift WHEP clients in a separate load-generator process (this
 * file, forked with AIRWAVE_BENCH_WHEP_CHILD) each put packets back in order (NACK
 * retransmissions arrive late) and count the video frames that reassemble whole, and the packets
 * never recovered; the server's CPU (with its
 * ffmpeg child) and RSS are sampled over a window. Then N LL-HLS viewers on blocking reload.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { H264Depacketizer } from '@airwave/media/protocols/shared/rtp/h264-depacketizer';
import { ReorderBuffer } from '@airwave/media/protocols/shared/rtp/reorder-buffer';
import { peerCodecs } from '@airwave/media/protocols/webrtc/peer-options';
import { importSrtpKeys, udpRoute } from '@airwave/media/protocols/webrtc/srtp/werift-srtp';
import { RTCPeerConnection, type RtpPacket } from 'werift';
import { createStreams, startAirwave } from '../lib/airwave-server.js';
import { stopChild } from '../lib/child-process.js';
import { PartLog, PartTimingCache, runLlHlsViewer, waitForLlHls } from '../lib/llhls-viewer.js';
import { benchMedia } from '../lib/media-file.js';
import { percentile } from '../lib/percentile.js';
import { processTree, sampleWindow } from '../lib/proc-stats.js';

/** Section title. */
export const title = 'WebRTC: WHEP viewers per core (against LL-HLS viewers)';

const COUNTS = (process.env.AIRWAVE_BENCH_WHEP_VIEWERS ?? '50,100').split(',').map(Number);
const WINDOW_S = Number(process.env.AIRWAVE_BENCH_WHEP_WINDOW_S ?? 15);
const SETTLE_S = 6;
const FPS = 30;

/** What the load generator is told. */
interface Plan {
  readonly whepUrl: string;
  readonly viewers: number;
  /** Counting starts and stops at these Date.now() times. */
  readonly countFrom: number;
  readonly countUntil: number;
}

/** What it reports. */
interface Report {
  readonly connected: number;
  readonly framesPerViewer: number[];
  readonly lostPackets: number;
}

/** Runs the section. */
export async function run(): Promise<string> {
  const source = benchMedia({ bFrames: false }).flv;
  const server = await startAirwave();
  const rows: string[] = [];
  let ffmpeg: ChildProcess | undefined;
  try {
    const [stream] = await createStreams(server, 1);
    if (!stream) {
      throw new Error('no stream');
    }
    ffmpeg = spawn(
      'ffmpeg',
      ['-v', 'error', '-re', '-stream_loop', '-1', '-i', source, '-c', 'copy', '-f', 'flv', stream.rtmpUrl],
      {
        stdio: 'ignore',
      },
    );
    const base = `${server.baseUrl}/play/${stream.playbackId}`;
    await waitForLlHls(`${base}/cmaf/video.m3u8`, Date.now() + 30_000);
    const serverGroup = () => processTree(server.pid);
    const idle = await sampleWindow({ server: serverGroup }, 5);
    rows.push(row('none (publish only)', 0, idle.percent.server ?? 0, idle.rss.server ?? 0, '—'));
    for (const viewers of COUNTS) {
      const start = Date.now() + (3 + viewers / 25) * 1000;
      const plan: Plan = {
        whepUrl: `${base}/webrtc`,
        viewers,
        countFrom: start + SETTLE_S * 1000,
        countUntil: start + (SETTLE_S + WINDOW_S) * 1000,
      };
      const loader = fork(fileURLToPath(import.meta.url), [], {
        env: { ...process.env, AIRWAVE_BENCH_WHEP_CHILD: JSON.stringify(plan) },
        execArgv: [
          '--conditions=source',
          '--import',
          'tsx',
          ...(process.env.AIRWAVE_BENCH_LOADER_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0),
        ],
      });
      const report = new Promise<Report>((resolve, reject) => {
        loader.once('message', (message) => resolve(message as Report));
        loader.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
      });
      await sleepUntil(plan.countFrom);
      const dropsBefore = udpReceiveBufferErrors();
      const window = await sampleWindow({ server: serverGroup, loader: () => processTree(loader.pid ?? 0) }, WINDOW_S);
      const kernelDrops = udpReceiveBufferErrors() - dropsBefore;
      const result = await report;
      await stopChild(loader);
      const expected = WINDOW_S * FPS;
      const frames = result.framesPerViewer;
      const delivery = `${result.connected}/${viewers} connected; frames per viewer min ${Math.min(...frames)}, median ${percentile(frames, 50)} of ~${expected}; ${result.lostPackets} packets never recovered; ${kernelDrops} datagrams dropped by full socket receive buffers on this machine (kernel RcvbufErrors) in the window`;
      rows.push(
        row(
          `${viewers} WHEP`,
          viewers,
          window.percent.server ?? 0,
          window.rss.server ?? 0,
          delivery,
          idle.percent.server ?? 0,
          window.percent.loader ?? 0,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 8000));
    }
    for (const viewers of COUNTS) {
      const until = Date.now() + (SETTLE_S + WINDOW_S + 2) * 1000;
      const cache = new PartTimingCache();
      const logs = Array.from({ length: viewers }, () => new PartLog());
      let errors = 0;
      const running = logs.map((log) =>
        runLlHlsViewer({ playlistUrl: `${base}/cmaf/video.m3u8`, until, cache, log, onError: () => errors++ }),
      );
      await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
      for (const log of logs) {
        log.clear();
      }
      const window = await sampleWindow({ server: serverGroup }, WINDOW_S);
      const parts = logs.map((log) => log.count);
      await Promise.all(running);
      rows.push(
        row(
          `${viewers} LL-HLS (in this process)`,
          viewers,
          window.percent.server ?? 0,
          window.rss.server ?? 0,
          `parts per viewer min ${Math.min(...parts)}, median ${percentile(parts, 50)}; ${errors} errors`,
          idle.percent.server ?? 0,
        ),
      );
    }
  } finally {
    if (ffmpeg) {
      await stopChild(ffmpeg);
    }
    await server.stop();
  }
  return [
    `Measured on a shared, loaded machine (2 cores, other engineers' jobs running). Source: 720p30 H.264 ~3 Mb/s, no B-frames, GOP 2 s, AAC (one ffmpeg transcodes it to Opus for all WHEP viewers; its CPU is in the server column). ${WINDOW_S} s windows after ${SETTLE_S} s of settling. The WHEP load generator (werift clients: DTLS, SRTP decryption) runs in its own process on the same 2 cores.`,
    '',
    '| viewers | server CPU (% of one core) | CPU per viewer | server RSS | load generator CPU | delivery |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'SRS publishes ~2,000 WebRTC players per core (C++, one SRTP encryption per packet per viewer as here). CPU per viewer = (server CPU − publish-only CPU) / viewers.',
  ].join('\n');
}

function row(
  label: string,
  viewers: number,
  cpu: number,
  rss: number,
  delivery: string,
  idleCpu = cpu,
  loaderCpu?: number,
): string {
  const perViewer = viewers > 0 ? `${((cpu - idleCpu) / viewers).toFixed(2)} %` : '—';
  const viewersPerCore =
    viewers > 0 && cpu > idleCpu ? ` (≈ ${Math.round((100 * viewers) / (cpu - idleCpu))} viewers per core)` : '';
  return `| ${label} | ${cpu.toFixed(0)} % | ${perViewer}${viewersPerCore} | ${Math.round(rss / 2 ** 20)} MiB | ${loaderCpu === undefined ? '—' : `${loaderCpu.toFixed(0)} %`} | ${delivery} |`;
}

/** The machine's count of UDP datagrams dropped because a socket's receive buffer was full. */
function udpReceiveBufferErrors(): number {
  const lines = readFileSync('/proc/net/snmp', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('Udp:'));
  const names = lines[0]?.split(/\s+/) ?? [];
  const values = lines[1]?.split(/\s+/) ?? [];
  return Number(values[names.indexOf('RcvbufErrors')] ?? 0);
}

function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
}

/** The load generator: `plan.viewers` werift WHEP clients. */
async function loadGenerator(plan: Plan): Promise<void> {
  const frames: number[] = [];
  let lost = 0;
  let connected = 0;
  const peers: RTCPeerConnection[] = [];
  const timers: NodeJS.Timeout[] = [];
  const join = async (index: number) => {
    const pc = new RTCPeerConnection({
      iceAdditionalHostAddresses: ['127.0.0.1'],
      codecs: peerCodecs(),
      iceServers: [],
    });
    peers.push(pc);
    frames[index] = 0;
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') {
        connected++;
        // As the server does (ADR 0031): werift's decryption with keys imported once, not per
        // packet; and a 1 MiB socket receive buffer, as browsers give their WebRTC sockets, so a
        // keyframe's burst is not dropped by the kernel while this process serves other viewers.
        for (const transport of pc.dtlsTransports) {
          importSrtpKeys(transport);
          udpRoute(transport)?.socket.setRecvBufferSize(1 << 20);
        }
      }
    });
    pc.onTrack.subscribe((track) => {
      if (track.kind !== 'video') {
        return;
      }
      // As a browser does: put packets back in order (NACKed retransmissions arrive late), then
      // count the frames that reassemble whole.
      const reorder = new ReorderBuffer<RtpPacket>(1024, 250);
      const depacketizer = new H264Depacketizer();
      const deliver = (events: ReturnType<typeof reorder.push>) => {
        const now = Date.now();
        const counting = now >= plan.countFrom && now < plan.countUntil;
        for (const event of events) {
          if (event.kind === 'lost') {
            depacketizer.lost();
            lost += counting ? event.count : 0;
            continue;
          }
          const { header, payload } = event.packet;
          try {
            const units = depacketizer.push(payload, header.timestamp, header.marker);
            if (counting) {
              frames[index] = (frames[index] ?? 0) + units.length;
            }
          } catch {
            lost += counting ? 1 : 0;
          }
        }
      };
      const timer = setInterval(() => deliver(reorder.poll(Date.now())), 50);
      timers.push(timer);
      track.onReceiveRtp.subscribe((rtp) => deliver(reorder.push(rtp.header.sequenceNumber, rtp, Date.now())));
    });
    await pc.setLocalDescription(await pc.createOffer());
    const response = await fetch(plan.whepUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: pc.localDescription?.sdp ?? '',
    });
    if (response.status !== 201) {
      throw new Error(`WHEP answered ${response.status}: ${await response.text()}`);
    }
    await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
  };
  const ramp = Math.max(0, plan.countFrom - SETTLE_S * 1000 - Date.now());
  await Promise.all(
    Array.from({ length: plan.viewers }, (_, index) =>
      new Promise((resolve) => setTimeout(resolve, (ramp * index) / plan.viewers)).then(() => join(index)),
    ),
  );
  await sleepUntil(plan.countUntil + 500);
  process.send?.({ connected, framesPerViewer: frames, lostPackets: lost } satisfies Report);
  for (const timer of timers) {
    clearInterval(timer);
  }
  await Promise.all(peers.map((pc) => pc.close().catch(() => undefined)));
  process.exit(0);
}

const childPlan = process.env.AIRWAVE_BENCH_WHEP_CHILD;
if (childPlan) {
  loadGenerator(JSON.parse(childPlan) as Plan).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
