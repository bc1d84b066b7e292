/**
 * Airwave's own RTP send path for one werift sender (RFC 3550 §5.1 header, RFC 8285 one-byte
 * header extension for the negotiated MID, RFC 3711/7714 protection, RFC 4585 §6.2.1 NACK
 * answered from a history of sent datagrams): the headers are written here, a frame's packets
 * protected together with keys imported once (SrtpProtector: one keystream call per frame for
 * AES-CM, ADR 0032) and handed to the nominated pair's UDP socket as one datagram each,
 * synchronously — no per-packet promise or packet object as in werift's RTCRtpSender.sendRtp. werift still runs the session (ICE, DTLS, RTCP): the sender
 * report counters it sends are kept up to date here, and the rollover counter comes from its
 * SRTP context. Over ICE-TCP, or before DTLS completed, packets go through werift's own path.
 */
import type { RTCRtpSender } from 'werift';
import { RtpHeader, RtpPacket } from 'werift';
import { MAX_RTP_PAYLOAD, type RtpPayload } from '../../shared/rtp/h264-packetizer.js';
import { type RtpToProtect, SRTP_AES128_CM_HMAC_SHA1_80, SrtpProtector, TARGET_HEAD } from './srtp-protector.js';
import { importSrtpKeys, rolloverCounter, sendingKeys, udpRoute } from './werift-srtp.js';

/** Sent datagrams kept for retransmission by default (about 1.6 s of a 3 Mb/s stream; 660 KiB). */
export const SEND_HISTORY = 512;
/** Bytes of one history slot: the protector's head, an RTP header with the MID extension, the largest payload, the tag. */
const SLOT_BYTES = TARGET_HEAD + 40 + MAX_RTP_PAYLOAD + 16;
const MID_URI = 'urn:ietf:params:rtp-hdrext:sdes:mid';
/** NTP seconds at the Unix epoch (RFC 5905 §6). */
const NTP_EPOCH_OFFSET_S = 2_208_988_800;

/** Counters of one send path. */
export interface RtpSendStats {
  /** Packets sent, by either path (retransmissions not counted). */
  packets: number;
  /** Their bytes as sent (header, payload and SRTP tag; werift's path: header and payload). */
  bytes: number;
  /** Packets sent through werift's own path (before DTLS completed, over TCP, or without a nominated UDP pair). */
  viaWerift: number;
  /** Packets the receiver asked for again (NACK) and that were sent again from the history. */
  retransmitted: number;
  /** NACKed packets no longer in the history. */
  missed: number;
  /** Packets werift's path failed to send. */
  sendErrors: number;
}

interface SenderFields {
  mid?: string;
  headerExtensions?: readonly { id: number; uri: string }[];
  ntpTimestamp?: bigint;
  rtpTimestamp?: number;
  packetCount?: number;
  octetCount?: number;
}

/** Sends RTP of one sender. */
export class RtpSendPath {
  readonly stats: RtpSendStats = { packets: 0, bytes: 0, viaWerift: 0, retransmitted: 0, missed: 0, sendErrors: 0 };
  private protector: SrtpProtector | undefined;
  private template: Buffer | undefined;
  /**
   * The history: with AES-CM each packet is protected straight into the slot of its sequence
   * number in one buffer made once (no buffer per packet for the garbage collector to promote
   * and sweep; ADR 0064), `historyLength` bytes from TARGET_HEAD; a packet that did not fit, or
   * any GCM packet, is kept in `spilled`. Node hands a datagram to the kernel a tick later (and
   * libuv holds it while the socket buffer is full), so a slot is written again only once the
   * datagram it held is known sent: `slotOrder` numbers what went into each slot, and the send
   * callback of a frame's last datagram, requested every historySize / 8 datagrams, raises
   * `sentBefore` (libuv completes a socket's sends in order). A slot still in flight makes its packet spill instead.
   */
  private slots: Buffer[] | undefined;
  private readonly slotOrder: Float64Array;
  private submitted = 0;
  private sentBefore = 0;
  /** The next frame whose last datagram gets a callback (every historySize / 8 datagrams). */
  private confirmAt = 0;
  private readonly spilled: (Buffer | undefined)[];
  private readonly historyLength: Int32Array;
  private readonly historySequence: Int32Array;

  constructor(
    private readonly sender: RTCRtpSender,
    private readonly payloadType: number,
    /** Datagrams kept for NACKs (SEND_HISTORY; less for audio). */
    private readonly historySize = SEND_HISTORY,
  ) {
    this.spilled = new Array(historySize);
    this.historyLength = new Int32Array(historySize);
    this.slotOrder = new Float64Array(historySize).fill(-1);
    this.historySequence = new Int32Array(historySize).fill(-1);
    sender.onGenericNack.subscribe((nack) => this.retransmit(nack.lost));
  }

  /** Sends one packet; `timestamp` is the RTP timestamp. */
  send(payload: Uint8Array, marker: boolean, sequence: number, timestamp: number): void {
    this.sendFrame([{ payload, marker }], sequence, timestamp);
  }

  /**
   * Sends a frame's packets (one RTP timestamp) with consecutive sequence numbers from `firstSequence`;
   * their keystream is made in one call (ADR 0032).
   */
  sendFrame(payloads: readonly RtpPayload[], firstSequence: number, timestamp: number): void {
    const transport = this.sender.dtlsTransport;
    const route = this.ready() ? udpRoute(transport) : undefined;
    const template = this.template;
    const protector = this.protector;
    if (!route || !template || !protector) {
      for (let i = 0; i < payloads.length; i++) {
        const { payload, marker } = payloads[i] as RtpPayload;
        this.sendViaWerift(payload, marker, (firstSequence + i) & 0xffff, timestamp);
      }
      return;
    }
    const packets: RtpToProtect[] = [];
    // Two packets of one frame must not share a slot.
    const slots = payloads.length <= this.historySize / 2 ? this.slots : undefined;
    const targets: (Buffer | undefined)[] | undefined = slots ? [] : undefined;
    const headers = Buffer.allocUnsafe(template.length * payloads.length);
    for (let i = 0; i < payloads.length; i++) {
      const { payload, marker } = payloads[i] as RtpPayload;
      const sequence = (firstSequence + i) & 0xffff;
      const roc = rolloverCounter(transport, this.sender.ssrc, sequence);
      if (roc === undefined) {
        this.sendViaWerift(payload, marker, sequence, timestamp);
        continue;
      }
      const header = headers.subarray(template.length * i, template.length * (i + 1));
      template.copy(header);
      header[1] = (marker ? 0x80 : 0) | this.payloadType;
      header.writeUInt16BE(sequence, 2);
      header.writeUInt32BE(timestamp >>> 0, 4);
      packets.push({ header, payload, roc });
      const slot = sequence % this.historySize;
      targets?.push((this.slotOrder[slot] as number) < this.sentBefore ? slots?.[slot] : undefined);
    }
    const datagrams = protector.protectAll(packets, targets);
    const fields = this.sender as unknown as SenderFields;
    let octets = 0;
    let bytes = 0;
    for (let i = 0; i < datagrams.length; i++) {
      const datagram = datagrams[i] as Buffer;
      // A callback now and then, on a frame's last datagram (the slots' bookkeeping): UDP send
      // errors are losses like any other (NACK recovers them), and a callback costs a tick.
      const sequence = (packets[i] as RtpToProtect).header.readUInt16BE(2);
      const slot = sequence % this.historySize;
      const inSlot = datagram.buffer === slots?.[slot]?.buffer;
      if (inSlot) {
        this.slotOrder[slot] = this.submitted++;
      }
      if (i === datagrams.length - 1 && slots && this.submitted >= this.confirmAt) {
        const through = this.submitted;
        this.confirmAt = through + this.historySize / 8;
        route.socket.send(datagram, route.port, route.address, () => {
          this.sentBefore = Math.max(this.sentBefore, through);
        });
      } else {
        route.socket.send(datagram, route.port, route.address);
      }
      this.spilled[slot] = inSlot ? undefined : datagram;
      this.historyLength[slot] = inSlot ? datagram.length : 0;
      this.historySequence[slot] = sequence;
      bytes += datagram.length;
      octets += (packets[i] as RtpToProtect).payload.byteLength;
    }
    this.stats.packets += datagrams.length;
    this.stats.bytes += bytes;
    fields.packetCount = ((fields.packetCount ?? 0) + datagrams.length) >>> 0;
    fields.octetCount = ((fields.octetCount ?? 0) + octets) >>> 0;
    fields.rtpTimestamp = timestamp >>> 0;
    transport.packetsSent += datagrams.length;
    transport.bytesSent += bytes;
  }

  private sendViaWerift(payload: Uint8Array, marker: boolean, sequence: number, timestamp: number): void {
    this.stats.viaWerift++;
    this.stats.packets++;
    this.stats.bytes += 12 + payload.byteLength;
    const header = new RtpHeader({ payloadType: this.payloadType, sequenceNumber: sequence, timestamp, marker });
    const packet = new RtpPacket(header, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength));
    this.sender.sendRtp(packet).catch(() => this.stats.sendErrors++);
  }

  /** Stamps the wall clock the next sender report pairs with the last RTP timestamp (call once per frame). */
  markFrameTime(): void {
    const now = performance.timeOrigin + performance.now();
    const seconds = Math.floor(now / 1000);
    const fraction = Math.floor(((now % 1000) / 1000) * 2 ** 32);
    (this.sender as unknown as SenderFields).ntpTimestamp =
      (BigInt(seconds + NTP_EPOCH_OFFSET_S) << 32n) | BigInt(fraction >>> 0);
  }

  /** True once DTLS completed over UDP and this path prepared its keys and header. */
  private ready(): boolean {
    if (this.protector) {
      return true;
    }
    const transport = this.sender.dtlsTransport;
    if (transport.state !== 'connected' || !udpRoute(transport)) {
      return false;
    }
    importSrtpKeys(transport);
    const keys = sendingKeys(transport);
    if (!keys) {
      return false;
    }
    this.protector = new SrtpProtector(keys);
    this.template = headerTemplate(this.sender);
    if (keys.profile === SRTP_AES128_CM_HMAC_SHA1_80) {
      const slab = Buffer.allocUnsafeSlow(SLOT_BYTES * this.historySize);
      this.slots = Array.from({ length: this.historySize }, (_, i) =>
        slab.subarray(i * SLOT_BYTES, (i + 1) * SLOT_BYTES),
      );
    }
    void this.sender.runRtcp();
    return true;
  }

  private retransmit(lost: readonly number[]): void {
    const route = udpRoute(this.sender.dtlsTransport);
    if (!route) {
      return;
    }
    for (const sequence of lost) {
      const slot = sequence % this.historySize;
      const datagram = this.spilled[slot];
      const length = this.historyLength[slot] as number;
      const inSlot = this.slots?.[slot];
      if (this.historySequence[slot] !== sequence || (!datagram && (length === 0 || !inSlot))) {
        this.stats.missed++;
        continue;
      }
      this.stats.retransmitted++;
      if (datagram) {
        route.socket.send(datagram, route.port, route.address);
      } else if (inSlot) {
        // In flight again: not rewritten before a later frame's send completes.
        this.slotOrder[slot] = this.submitted++;
        route.socket.send(inSlot, TARGET_HEAD, length, route.port, route.address);
      }
    }
  }
}

/** The fixed part of every header: V=2, X when the MID goes out, the SSRC, the MID extension. */
function headerTemplate(sender: RTCRtpSender): Buffer {
  const fields = sender as unknown as SenderFields;
  const midId = fields.headerExtensions?.find((extension) => extension.uri === MID_URI)?.id;
  const mid = fields.mid !== undefined && midId !== undefined && midId < 15 ? Buffer.from(fields.mid) : undefined;
  if (!mid || mid.length === 0 || mid.length > 16) {
    const header = Buffer.alloc(12);
    header[0] = 0x80;
    header.writeUInt32BE(sender.ssrc >>> 0, 8);
    return header;
  }
  const words = Math.ceil((1 + mid.length) / 4);
  const header = Buffer.alloc(12 + 4 + words * 4);
  header[0] = 0x90;
  header.writeUInt32BE(sender.ssrc >>> 0, 8);
  header.writeUInt16BE(0xbede, 12);
  header.writeUInt16BE(words, 14);
  header[16] = ((midId as number) << 4) | (mid.length - 1);
  mid.copy(header, 17);
  return header;
}
