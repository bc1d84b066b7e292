/**
 * A WHEP load generator light enough for a hundred viewers on the machine that serves them (as
 * SRS's srs-bench is for SRS): each viewer is a werift peer that does the real signalling (POST
 * of an SDP offer, the answer; WHEP draft §4.2), ICE and DTLS-SRTP (RFC 5764), then counts its
 * media from the RTP headers, which SRTP leaves in clear (RFC 3711 §3.1): the UDP sockets' RTP
 * datagrams are taken before werift would decrypt them (RtpStreamCount: packets, gaps, whole and
 * damaged frames). One packet in `authenticateEvery` of each stream is authenticated and
 * decrypted with the session's SRTP keys (werift's SrtpSession), proving the counted packets
 * genuine. Every second each viewer sends an SRTCP receiver report (RFC 3550 §6.4.2) about its
 * streams, as a browser does (the server ends viewers that send no RTCP). Nothing is decoded.
 */

import type { Socket } from 'node:dgram';
import { peerCodecs, peerHeaderExtensions } from '@airwave/media/protocols/webrtc/peer-options';
import {
  SRTP_AEAD_AES_128_GCM,
  SRTP_AES128_CM_HMAC_SHA1_80,
} from '@airwave/media/protocols/webrtc/srtp/srtp-protector';
import { importSrtpKeys, preferSrtpProfiles } from '@airwave/media/protocols/webrtc/srtp/werift-srtp';
import { type RTCDtlsTransport, RTCPeerConnection, RtcpReceiverInfo, RtcpRrPacket } from 'werift';
import { countersBetween, RtpStreamCount, type RtpStreamCounters } from './rtp-stream-count.js';

/** Receive buffer of each viewer's sockets (Linux caps it at net.core.rmem_max, 4 MiB here). */
const RECEIVE_BUFFER = 2 * 1024 * 1024;

/** What the viewers saw in the counting window. */
export interface LightViewersReport {
  /** Viewers whose connection reached `connected` (and still was at the end). */
  readonly connected: number;
  /** Whole video frames each viewer received in the window. */
  readonly framesPerViewer: number[];
  /** Video frames each viewer received damaged (next to a gap in the sequence numbers). */
  readonly damagedPerViewer: number[];
  /** Video and audio packets each viewer never received (sequence gaps; no NACK is sent). */
  readonly lostPerViewer: number[];
  /** The same, of video only. */
  readonly lostVideoPerViewer: number[];
  /** Opus frames each viewer received. */
  readonly audioFramesPerViewer: number[];
  /** Sampled packets that authenticated (and decrypted), and those that did not. */
  readonly authenticated: number;
  readonly authFailures: number;
  /** A few failed samples: stream, sequence number, error. */
  readonly authFailureSamples: string[];
  /** SRTP profiles the DTLS handshakes chose. */
  readonly srtpProfiles: string[];
  /** Why viewers failed to start or connect, by message. */
  readonly errors: Record<string, number>;
  /** Time from the POST to `connected`, per connected viewer (ms). */
  readonly connectMs: number[];
}

interface Stream {
  readonly kind: 'video' | 'audio';
  readonly count: RtpStreamCount;
  sampled: number;
  window?: RtpStreamCounters;
}

/** One viewer: its peer and what it counted. */
class LightViewer {
  readonly streams = new Map<number, Stream>();
  authenticated = 0;
  authFailures = 0;
  readonly authFailureSamples: string[] = [];
  connectMs: number | undefined;
  /** How the connection ended after it was up, if it did. */
  lostConnection: string | undefined;
  private dtls: RTCDtlsTransport | undefined;
  private readonly rtcpSsrc = (Math.random() * 0xffffffff) >>> 0;

  constructor(
    readonly pc: RTCPeerConnection,
    private readonly authenticateEvery: number,
  ) {}

  /** Negotiates with the WHEP endpoint and resolves once ICE and DTLS completed. */
  async join(url: string, timeoutMs: number): Promise<void> {
    const pc = this.pc;
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    await pc.setLocalDescription(await pc.createOffer());
    const transport = pc.dtlsTransports[0];
    if (!transport) {
      throw new Error('no DTLS transport');
    }
    this.dtls = transport;
    // This side is the DTLS server (the answer is `active`): it picks, as Chromium does, AES-CM.
    preferSrtpProfiles(transport, [SRTP_AES128_CM_HMAC_SHA1_80, SRTP_AEAD_AES_128_GCM]);
    this.takeRtp(transport);
    const posted = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: pc.localDescription?.sdp ?? '',
    });
    const answer = await response.text();
    if (response.status !== 201) {
      throw new Error(`WHEP answered ${response.status}`);
    }
    const kinds = payloadKinds(answer);
    this.kindOf = (payloadType) => kinds.get(payloadType);
    const connected = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not connected within ${timeoutMs / 1000} s (ICE ${pc.iceConnectionState})`)),
        timeoutMs,
      );
      pc.connectionStateChange.subscribe((state) => {
        if (state === 'connected') {
          clearTimeout(timer);
          resolve();
        } else if (state === 'failed') {
          clearTimeout(timer);
          reject(new Error(`connection failed (ICE ${pc.iceConnectionState}, DTLS ${transport.state})`));
        }
      });
    });
    await pc.setRemoteDescription({ type: 'answer', sdp: answer });
    await connected;
    importSrtpKeys(transport);
    this.connectMs = performance.now() - posted;
    pc.connectionStateChange.subscribe((state) => {
      this.lostConnection ??= `${state} after connecting (ICE ${pc.iceConnectionState})`;
    });
  }

  /** The SRTP profile the handshake chose. */
  get profile(): string | undefined {
    const profile = (this.dtls?.srtp as unknown as { remoteContext?: { profile?: number } } | undefined)?.remoteContext
      ?.profile;
    return profile === SRTP_AES128_CM_HMAC_SHA1_80
      ? 'AES_CM_128_HMAC_SHA1_80'
      : profile === SRTP_AEAD_AES_128_GCM
        ? 'AEAD_AES_128_GCM'
        : undefined;
  }

  /** Sends a receiver report about every stream received (RFC 3550 §6.4.2). */
  report(): void {
    if (!this.dtls?.srtcp || this.streams.size === 0) {
      return;
    }
    const reports = [...this.streams].map(
      ([ssrc, stream]) =>
        new RtcpReceiverInfo({
          ssrc,
          fractionLost: 0,
          packetsLost: Math.min(stream.count.counters.lost, 0x7fffff),
          highestSequence: stream.count.counters.highestSequence >>> 0,
          jitter: 0,
          lsr: 0,
          dlsr: 0,
        }),
    );
    this.dtls.sendRtcp([new RtcpRrPacket({ ssrc: this.rtcpSsrc, reports })]).catch(() => undefined);
  }

  private kindOf: (payloadType: number) => 'video' | 'audio' | undefined = () => undefined;

  /**
   * Takes RTP datagrams from the ICE sockets before werift sees them (STUN, DTLS and RTCP still go
   * to werift): RTP/RTCP have version 2 in the first byte (RFC 7983 §7), RTCP a packet type 192–223
   * in the second (RFC 5761 §4).
   */
  private takeRtp(transport: RTCDtlsTransport): void {
    const connection = transport.iceTransport.connection as unknown as {
      protocols?: { transport?: { onData?: (data: Buffer, addr: unknown) => void; socket?: Socket } }[];
    };
    for (const protocol of connection.protocols ?? []) {
      const udp = protocol.transport;
      const werift = udp?.onData;
      if (!udp || !werift) {
        continue;
      }
      // Room for a joining viewer's burst (the cached GOP at once), as a browser's socket has.
      udp.socket?.setRecvBufferSize(RECEIVE_BUFFER);
      udp.onData = (data, addr) => {
        if (
          data.length >= 12 &&
          (data[0] as number) >> 6 === 2 &&
          !((data[1] as number) >= 192 && (data[1] as number) <= 223)
        ) {
          this.onRtp(data);
        } else {
          werift(data, addr);
        }
      };
    }
  }

  private onRtp(data: Buffer): void {
    const ssrc = data.readUInt32BE(8);
    let stream = this.streams.get(ssrc);
    if (!stream) {
      const kind = this.kindOf((data[1] as number) & 0x7f);
      if (!kind) {
        return;
      }
      stream = { kind, count: new RtpStreamCount(), sampled: 0 };
      this.streams.set(ssrc, stream);
    }
    stream.count.add(data.readUInt16BE(2), data.readUInt32BE(4), ((data[1] as number) & 0x80) !== 0);
    if (++stream.sampled >= this.authenticateEvery && this.dtls?.srtp) {
      stream.sampled = 0;
      try {
        this.dtls.srtp.decrypt(data);
        this.authenticated++;
      } catch (error) {
        this.authFailures++;
        if (this.authFailureSamples.length < 3) {
          const sequence = data.readUInt16BE(2);
          this.authFailureSamples.push(
            `${stream.kind} seq ${sequence} (${stream.count.counters.packets} received, ${data.length} bytes): ${(error as Error).message}`,
          );
        }
      }
    }
  }
}

/** The payload types of the answer's video and audio sections. */
function payloadKinds(sdp: string): Map<number, 'video' | 'audio'> {
  const kinds = new Map<number, 'video' | 'audio'>();
  for (const line of sdp.split(/\r?\n/)) {
    const match = /^m=(video|audio) \d+ \S+ (.*)$/.exec(line);
    if (match) {
      for (const type of (match[2] ?? '').split(' ')) {
        kinds.set(Number(type), match[1] as 'video' | 'audio');
      }
    }
  }
  return kinds;
}

/** Options of a set of light viewers. */
export interface LightViewersOptions {
  /** Authenticate one packet in this many of each stream (default 16). */
  readonly authenticateEvery?: number;
  /** A viewer not connected this long after its POST has failed (default 30 s). */
  readonly connectTimeoutMs?: number;
}

/** `count` light WHEP viewers of one URL in this process. */
export class LightWhepViewers {
  private readonly errors: Record<string, number> = {};
  private readonly reports: NodeJS.Timeout;

  private constructor(private readonly viewers: LightViewer[]) {
    this.reports = setInterval(() => {
      for (const viewer of this.viewers) {
        viewer.report();
      }
    }, 1000);
  }

  /** Starts `count` viewers of `whepUrl`, spread evenly over `rampMs`; resolves at once. */
  static start(whepUrl: string, count: number, rampMs: number, options: LightViewersOptions = {}): LightWhepViewers {
    const viewers: LightViewer[] = [];
    const set = new LightWhepViewers(viewers);
    for (let i = 0; i < count; i++) {
      const pc = new RTCPeerConnection({
        codecs: peerCodecs(),
        headerExtensions: peerHeaderExtensions(),
        iceServers: [],
        iceAdditionalHostAddresses: ['127.0.0.1'],
        bundlePolicy: 'max-bundle',
      });
      const viewer = new LightViewer(pc, options.authenticateEvery ?? 16);
      viewers.push(viewer);
      setTimeout(
        () => {
          viewer.join(whepUrl, options.connectTimeoutMs ?? 30_000).catch((error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            set.errors[message] = (set.errors[message] ?? 0) + 1;
          });
        },
        (rampMs * i) / count,
      );
    }
    return set;
  }

  /** Snapshots every stream's counters at `from` and takes the window's difference at `until` (Date.now() times). */
  async countBetween(from: number, until: number): Promise<void> {
    const at = (time: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));
    await at(from);
    const before = this.viewers.map(
      (viewer) => new Map([...viewer.streams].map(([ssrc, s]) => [ssrc, s.count.snapshot()])),
    );
    await at(until);
    this.viewers.forEach((viewer, i) => {
      for (const [ssrc, stream] of viewer.streams) {
        const start = before[i]?.get(ssrc) ?? emptyCounters();
        stream.window = countersBetween(start, stream.count.snapshot());
      }
    });
  }

  /** What the viewers saw in the window. */
  report(): LightViewersReport {
    const sum = (viewer: LightViewer, kind: 'video' | 'audio', field: keyof RtpStreamCounters) =>
      [...viewer.streams.values()]
        .filter((stream) => stream.kind === kind)
        .reduce((total, stream) => total + (stream.window?.[field] ?? 0), 0);
    return {
      connected: this.viewers.filter((viewer) => viewer.pc.connectionState === 'connected').length,
      framesPerViewer: this.viewers.map((viewer) => sum(viewer, 'video', 'wholeFrames')),
      damagedPerViewer: this.viewers.map((viewer) => sum(viewer, 'video', 'damagedFrames')),
      lostPerViewer: this.viewers.map((viewer) => sum(viewer, 'video', 'lost') + sum(viewer, 'audio', 'lost')),
      lostVideoPerViewer: this.viewers.map((viewer) => sum(viewer, 'video', 'lost')),
      audioFramesPerViewer: this.viewers.map((viewer) => sum(viewer, 'audio', 'wholeFrames')),
      authenticated: this.viewers.reduce((total, viewer) => total + viewer.authenticated, 0),
      authFailures: this.viewers.reduce((total, viewer) => total + viewer.authFailures, 0),
      authFailureSamples: this.viewers.flatMap((viewer) => viewer.authFailureSamples).slice(0, 3),
      srtpProfiles: [...new Set(this.viewers.flatMap((viewer) => (viewer.profile ? [viewer.profile] : [])))],
      errors: this.viewers.reduce(
        (errors, viewer) => {
          if (viewer.lostConnection) {
            errors[viewer.lostConnection] = (errors[viewer.lostConnection] ?? 0) + 1;
          }
          return errors;
        },
        { ...this.errors },
      ),
      connectMs: this.viewers.flatMap((viewer) => (viewer.connectMs === undefined ? [] : [viewer.connectMs])),
    };
  }

  /** Closes every viewer. */
  async close(): Promise<void> {
    clearInterval(this.reports);
    await Promise.all(this.viewers.map((viewer) => viewer.pc.close().catch(() => undefined)));
  }
}

function emptyCounters(): RtpStreamCounters {
  return { packets: 0, lost: 0, late: 0, wholeFrames: 0, damagedFrames: 0, highestSequence: -1 };
}
