/**
 * CPU per packet of WHEP's send path, werift's (`RTCRtpSender.sendRtp`, as before ADR 0031) against
 * Airwave's (`RtpSendPath`: keys imported once, a frame's packets at a time, synchronous datagrams)
 * with each SRTP profile — AEAD_AES_128_GCM (a cipher per packet) and AES_CM_128_HMAC_SHA1_80 (one
 * keystream call per frame, ADR 0032) — in one run: 2N werift peers in this process, half
 * negotiating each profile, each send video to one of 2N werift viewers in a child process
 * (DTLS-SRTP on loopback); 30 frames a second of 11 packets (1100-byte payloads, ≈ 3 Mb/s per
 * viewer) to the N viewers of a round's profile; rounds of each path in ABCCBA order, CPU of this
 * process from process.cpuUsage() over each round minus an idle round (RTCP, ICE consent). CPU time, not wall time, so a loaded machine inflates it less
 * than the viewer benchmark's delivery columns; the viewers count what arrives (authenticated).
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { peerCodecs, peerConfig } from '@airwave/media/protocols/webrtc/peer-options';
import { RtpSendPath } from '@airwave/media/protocols/webrtc/srtp/rtp-send-path';
import {
  SRTP_AEAD_AES_128_GCM,
  SRTP_AES128_CM_HMAC_SHA1_80,
} from '@airwave/media/protocols/webrtc/srtp/srtp-protector';
import { importSrtpKeys, preferSrtpProfiles, udpRoute } from '@airwave/media/protocols/webrtc/srtp/werift-srtp';
import { RTCPeerConnection, type RTCRtpSender, RtpHeader, RtpPacket } from 'werift';
import { stopChild } from '../lib/child-process.js';

/** Section title. */
export const title = 'WebRTC: WHEP send path CPU per packet (werift vs Airwave)';

const VIEWERS = Number(process.env.AIRWAVE_BENCH_SEND_VIEWERS ?? 12);
const ROUND_S = Number(process.env.AIRWAVE_BENCH_SEND_ROUND_S ?? 5);
const FPS = 30;
const PACKETS_PER_FRAME = 11;
const PAYLOAD = 1100;
/** Video and Opus packets a second of a 3 Mb/s 720p30 stream with audio. */
const PACKETS_PER_VIEWER_S = 330 + 50;

type Path = 'werift' | 'gcm' | 'cm' | 'idle';

const LABELS: Record<Exclude<Path, 'idle'>, string> = {
  werift: "werift's RTCRtpSender.sendRtp (AES-GCM, before ADR 0031)",
  gcm: "Airwave's RtpSendPath, AEAD_AES_128_GCM (a cipher per packet)",
  cm: "Airwave's RtpSendPath, AES_CM_128_HMAC_SHA1_80 (keystream per frame, ADR 0032)",
};

interface Sending {
  readonly profile: 'gcm' | 'cm';
  readonly sender: RTCRtpSender;
  readonly path: RtpSendPath;
  readonly payloadType: number;
  sequence: number;
}

/** Runs the section. */
export async function run(): Promise<string> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, AIRWAVE_BENCH_SEND_CHILD: '1' },
    execArgv: ['--conditions=source', '--import', 'tsx'],
  });
  const replies: ((message: ChildMessage) => void)[] = [];
  child.on('message', (message) => replies.shift()?.(message as ChildMessage));
  const ask = (message: ParentMessage) =>
    new Promise<ChildMessage>((resolve) => {
      replies.push(resolve);
      child.send(message);
    });
  const peers: RTCPeerConnection[] = [];
  const load = [loadavg()[0] ?? 0];
  try {
    const offers = (await ask({ type: 'offers', viewers: 2 * VIEWERS })) as { sdps: string[] };
    const senders: Sending[] = [];
    const answers: string[] = [];
    for (const sdp of offers.sdps) {
      const pc = new RTCPeerConnection(peerConfig({ publicIps: ['127.0.0.1'] }));
      peers.push(pc);
      await pc.setRemoteDescription({ type: 'offer', sdp });
      // This side is the DTLS client: the profile it offers alone is the one the viewer takes.
      const profile = peers.length <= VIEWERS ? SRTP_AEAD_AES_128_GCM : SRTP_AES128_CM_HMAC_SHA1_80;
      for (const transport of pc.dtlsTransports) {
        preferSrtpProfiles(transport, [profile]);
      }
      for (const transceiver of pc.getTransceivers()) {
        transceiver.setDirection(transceiver.kind === 'video' ? 'sendonly' : 'inactive');
      }
      await pc.setLocalDescription(await pc.createAnswer());
      answers.push(pc.localDescription?.sdp ?? '');
    }
    // Five handshakes at a time; a loaded machine still fails one now and then: it is left out.
    const live: RTCPeerConnection[] = [];
    for (let from = 0; from < peers.length; from += 5) {
      await ask({ type: 'answers', sdps: answers.slice(from, from + 5), from });
      const batch = peers.slice(from, from + 5);
      const settled = await Promise.allSettled(batch.map((pc) => connected(pc)));
      live.push(...batch.filter((_, i) => settled[i]?.status === 'fulfilled'));
    }
    for (const pc of live) {
      const index = peers.indexOf(pc);
      const transceiver = pc.getTransceivers().find((t) => t.kind === 'video');
      const codec = transceiver?.sender.codec;
      if (!transceiver || !codec) {
        throw new Error('no video sender');
      }
      senders.push({
        profile: index < VIEWERS ? 'gcm' : 'cm',
        sender: transceiver.sender,
        path: new RtpSendPath(transceiver.sender, codec.payloadType),
        payloadType: codec.payloadType,
        sequence: 1000,
      });
    }
    const rows: string[] = [];
    const results = new Map<Path, { cpuUs: number; packets: number; received: number }[]>();
    for (const path of ['idle', 'werift', 'gcm', 'cm', 'cm', 'gcm', 'werift'] as const) {
      await ask({ type: 'reset' });
      const result = await round(
        path,
        senders.filter((sending) => sending.profile === (path === 'cm' ? 'cm' : 'gcm')),
      );
      const counted = (await ask({ type: 'count' })) as { received: number };
      results.set(path, [...(results.get(path) ?? []), { ...result, received: counted.received }]);
    }
    load.push(loadavg()[0] ?? 0);
    const idle = results.get('idle')?.[0];
    const idleUsPerS = (idle?.cpuUs ?? 0) / ROUND_S;
    const perPacket: Partial<Record<Path, number>> = {};
    for (const path of ['werift', 'gcm', 'cm'] as const) {
      const runs = results.get(path) ?? [];
      const cpuUs = runs.reduce((sum, r) => sum + r.cpuUs - idleUsPerS * ROUND_S, 0);
      const packets = runs.reduce((sum, r) => sum + r.packets, 0);
      const received = runs.reduce((sum, r) => sum + r.received, 0);
      const us = cpuUs / packets;
      perPacket[path] = us;
      const perViewer = (us * PACKETS_PER_VIEWER_S) / 1e4;
      rows.push(
        `| ${LABELS[path]} | ${packets} | ${received} (${((100 * received) / packets).toFixed(1)} %) | ${us.toFixed(1)} µs | ${perViewer.toFixed(2)} % | ≈ ${Math.round(100 / perViewer)} |`,
      );
    }

    const gcmCount = senders.filter((sending) => sending.profile === 'gcm').length;
    const cmCount = senders.length - gcmCount;
    const ratio = (a: Path, b: Path) => (perPacket[a] ?? 0) / (perPacket[b] ?? 1);
    return [
      `Measured on a shared, loaded 2-core machine: 1-minute load average ${load.map((l) => l.toFixed(1)).join(' before, ')} after. ${gcmCount} AES-GCM and ${cmCount} AES-CM viewers (of ${VIEWERS} each started; the others did not complete DTLS), ${ROUND_S} s rounds in idle, werift, GCM, CM, CM, GCM, werift order (werift's path sends to the GCM viewers, as werift negotiates GCM); CPU of the sending process only, minus the idle round (${(idleUsPerS / 1e4).toFixed(1)} % of a core: RTCP, ICE consent). "Viewers per core" assumes ${PACKETS_PER_VIEWER_S} packets a second per viewer (3 Mb/s 720p30 video and Opus). The viewers (werift, keys imported once) run in a child process on the same cores; "received" counts the packets they authenticated and decrypted (below 100 % when that process is starved and the kernel drops what its sockets cannot hold). On loopback the sender's CPU includes the kernel delivering each datagram to the receiving socket.`,
      '',
      '| send path | packets sent | received | CPU per packet | CPU per viewer (% of a core) | viewers per core |',
      '|---|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      `Per packet, Airwave's AES-CM path costs **${ratio('cm', 'werift').toFixed(2)}×** werift's (werift / Airwave AES-CM = ${ratio('werift', 'cm').toFixed(2)}×) and **${ratio('cm', 'gcm').toFixed(2)}×** Airwave's own AES-GCM path (GCM / CM = ${ratio('gcm', 'cm').toFixed(2)}×).`,
    ].join('\n');
  } finally {
    await Promise.all(peers.map((pc) => pc.close().catch(() => undefined)));
    await stopChild(child);
  }
}

/** Sends ROUND_S seconds of frames to every viewer through `path`; the CPU it took. */
async function round(path: Path, senders: readonly Sending[]): Promise<{ cpuUs: number; packets: number }> {
  const payload = Buffer.alloc(PAYLOAD, 7);
  const frames = ROUND_S * FPS;
  const started = performance.now();
  const cpu = process.cpuUsage();
  let packets = 0;
  for (let frame = 0; frame < frames; frame++) {
    const timestamp = frame * 3000;
    if (path !== 'idle') {
      await Promise.all(
        senders.map(async (sending) => {
          for (let i = 0; i < PACKETS_PER_FRAME; i++) {
            const marker = i === PACKETS_PER_FRAME - 1;
            const sequence = sending.sequence;
            sending.sequence = (sequence + 1) & 0xffff;
            packets++;
            if (path !== 'werift') {
              sending.path.send(payload, marker, sequence, timestamp);
            } else {
              const header = new RtpHeader({
                payloadType: sending.payloadType,
                sequenceNumber: sequence,
                timestamp,
                marker,
              });
              await sending.sender.sendRtp(new RtpPacket(header, payload));
            }
          }
        }),
      );
    }
    const next = started + ((frame + 1) * 1000) / FPS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  const used = process.cpuUsage(cpu);
  return { cpuUs: used.user + used.system, packets };
}

function connected(pc: RTCPeerConnection): Promise<void> {
  if (pc.connectionState === 'connected') {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`a viewer did not connect within 90 s (ICE ${pc.iceConnectionState}, ${pc.connectionState})`)),
      90_000,
    );
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

type ParentMessage =
  | { type: 'offers'; viewers: number }
  | { type: 'answers'; sdps: string[]; from: number }
  | { type: 'reset' }
  | { type: 'count' };
type ChildMessage = { sdps: string[] } | { received: number } | { ok: true };

/** The viewers: werift peers receiving video, counting authenticated packets. */
function viewers(): void {
  const pcs: RTCPeerConnection[] = [];
  let received = 0;
  process.on('message', async (message: ParentMessage) => {
    if (message.type === 'offers') {
      const sdps: string[] = [];
      for (let i = 0; i < message.viewers; i++) {
        const pc = new RTCPeerConnection({
          iceAdditionalHostAddresses: ['127.0.0.1'],
          codecs: peerCodecs(),
          iceServers: [],
        });
        pcs.push(pc);
        pc.addTransceiver('video', { direction: 'recvonly' });
        pc.connectionStateChange.subscribe((state) => {
          if (state === 'connected') {
            for (const transport of pc.dtlsTransports) {
              importSrtpKeys(transport);
              udpRoute(transport)?.socket.setRecvBufferSize(1 << 20);
            }
          }
        });
        pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => received++));
        await pc.setLocalDescription(await pc.createOffer());
        sdps.push(pc.localDescription?.sdp ?? '');
      }
      process.send?.({ sdps } satisfies ChildMessage);
    } else if (message.type === 'answers') {
      await Promise.all(
        message.sdps.map((sdp, i) => pcs[message.from + i]?.setRemoteDescription({ type: 'answer', sdp })),
      );
      process.send?.({ ok: true } satisfies ChildMessage);
    } else if (message.type === 'reset') {
      received = 0;
      process.send?.({ ok: true } satisfies ChildMessage);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.send?.({ received } satisfies ChildMessage);
    }
  });
}

if (process.env.AIRWAVE_BENCH_SEND_CHILD) {
  viewers();
}
