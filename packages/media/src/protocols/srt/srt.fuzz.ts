/**
 * Fuzz targets of the SRT parsers (draft-sharabayko-srt-01 §3): packet headers, the handshake CIF
 * with its extensions and the conclusion checks, key material, loss lists and ACKs, and a live
 * connection fed any datagram (data, control, DROPREQ, KM refresh), and a sending call's sender
 * fed any ACK or NAK. Seeds are packets shaped as
 * libsrt sends them.
 */
import { Hub } from '../../hub/hub.js';
import { silentLogger } from '../../ports.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { readConclusion } from './conclusion.js';
import { SrtConnection } from './connection.js';
import { deriveKek, wrapKeys } from './crypto.js';
import {
  ExtensionFlag,
  ExtensionType,
  HandshakeType,
  parseHandshake,
  parseSrtHandshakeInfo,
  parseStreamIdExtension,
  SrtFlag,
  writeHandshake,
  writeSrtHandshakeInfo,
  writeStreamIdExtension,
} from './handshake.js';
import { KmCipher, parseKeyMaterial, writeKeyMaterial } from './key-material.js';
import {
  ControlType,
  parseAckCif,
  parseLossList,
  parsePacket,
  UserSubtype,
  writeAckCif,
  writeControlPacket,
  writeDataPacket,
  writeLossList,
} from './packet.js';
import { SrtSender } from './sender.js';

const PASSPHRASE = 'fuzzing-passphrase';
const SALT = new Uint8Array(16).fill(7);

/** A KMREQ with an even AES-128 key wrapped with PASSPHRASE. */
export function keyMaterialSeed(): Uint8Array {
  const kek = deriveKek(PASSPHRASE, SALT, 16);
  return writeKeyMaterial({
    keys: 1,
    keki: 0,
    cipher: KmCipher.aesCtr,
    auth: 0,
    streamEncapsulation: 2,
    salt: SALT,
    keyLength: 16,
    wrapped: wrapKeys(kek, new Uint8Array(16).fill(3)),
  });
}

/** A caller's conclusion handshake packet as libsrt sends it (HSREQ, SID, KMREQ). */
export function conclusionSeed(): Uint8Array {
  const cif = writeHandshake({
    version: 5,
    encryption: 2,
    extensionField: ExtensionFlag.hsreq | ExtensionFlag.kmreq | ExtensionFlag.config,
    initialSequence: 123456,
    mtu: 1500,
    flowWindow: 8192,
    type: HandshakeType.conclusion,
    socketId: 0x1234,
    cookie: 0xabcdef,
    peerIp: Uint8Array.of(1, 0, 0, 127, ...new Uint8Array(12)),
    extensions: [
      {
        type: ExtensionType.hsreq,
        content: writeSrtHandshakeInfo({
          srtVersion: 0x010502,
          flags: SrtFlag.tsbpdSend | SrtFlag.tsbpdReceive | SrtFlag.crypt | SrtFlag.tooLatePacketDrop,
          receiverDelayMs: 120,
          senderDelayMs: 200,
        }),
      },
      { type: ExtensionType.kmreq, content: keyMaterialSeed() },
      { type: ExtensionType.streamId, content: writeStreamIdExtension('#!::r=stream-key,m=publish') },
      { type: ExtensionType.congestion, content: writeStreamIdExtension('live') },
    ],
  });
  return writeControlPacket(ControlType.handshake, 0, 0, 1000, 0, cif);
}

function dataSeed(sequence: number, keySlot: 0 | 1 = 0): Uint8Array {
  const payload = new Uint8Array(188 * 7).fill(0xff);
  for (let i = 0; i < 7; i++) {
    payload[i * 188] = 0x47;
  }
  return writeDataPacket({ sequence, messageNumber: 1, timestamp: 5000, destinationSocket: 9, payload, keySlot });
}

function connectionSeeds(): Uint8Array[] {
  return [
    dataSeed(100),
    dataSeed(104, 1),
    writeControlPacket(ControlType.ackack, 0, 1, 0, 9),
    writeControlPacket(ControlType.keepalive, 0, 0, 0, 9),
    writeControlPacket(ControlType.dropRequest, 0, 1, 0, 9, writeLossList([{ from: 101, to: 102 }])),
    writeControlPacket(ControlType.userDefined, UserSubtype.kmRequest, 0, 0, 9, keyMaterialSeed()),
    writeControlPacket(ControlType.nak, 0, 0, 0, 9, writeLossList([{ from: 1, to: 1 }])),
  ];
}

/** A connection that accepts everything the fuzzer sends; replaced when it closes. */
function fuzzConnection(): () => SrtConnection {
  const hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
  let current: SrtConnection | undefined;
  let serial = 0;
  return () => {
    if (current && !current.closed) {
      return current;
    }
    serial++;
    current = new SrtConnection({
      socketId: 9,
      peerSocketId: 1,
      peer: '127.0.0.1:1',
      publisher: hub.publish({ streamId: `fuzz-${serial}`, playbackId: `fuzz-${serial}` }, 'srt'),
      log: silentLogger,
      send: () => {},
      initialSequence: 100,
      latencyMs: 0,
      timeBaseUs: 0,
      bufferPackets: 64,
      idleTimeoutMs: 60_000,
      keys: {
        passphrase: PASSPHRASE,
        initial: { even: Buffer.alloc(16, 3), odd: undefined, salt: Buffer.from(SALT) },
      },
      onClose: () => {},
    });
    return current;
  };
}

/** A sender holding a few packets (sequence numbers 100…), refilled as ACKs free them. */
function fuzzSender(): { sender: SrtSender; now: () => number } {
  let clock = 0;
  const sender = new SrtSender({
    initialSequence: 100,
    peerSocketId: 1,
    dropDelayUs: 1_000_000,
    bufferPackets: 64,
    timestamp: (now) => now >>> 0,
    send: () => {},
  });
  return {
    sender,
    now: () => {
      clock += 1000;
      while (sender.unacknowledged < 8) {
        sender.send(new Uint8Array(188), clock);
      }
      return clock;
    },
  };
}

/** The SRT fuzz targets. */
export const fuzzTargets: FuzzTarget[] = (() => {
  const connection = fuzzConnection();
  const sending = fuzzSender();
  return [
    {
      name: 'srt-packet',
      seeds: [
        dataSeed(5),
        conclusionSeed(),
        writeControlPacket(
          ControlType.ack,
          0,
          1,
          0,
          9,
          writeAckCif({
            lastAcknowledged: 7,
            rttUs: 1,
            rttVarianceUs: 1,
            availableBuffer: 1,
            packetsPerSecond: 1,
            linkCapacity: 1,
            bytesPerSecond: 1,
          }),
        ),
      ],
      run(input) {
        const packet = parsePacket(input);
        if (!packet.control) {
          return;
        }
        if (packet.type === ControlType.ack) {
          parseAckCif(packet.cif);
        } else if (packet.type === ControlType.nak) {
          parseLossList(packet.cif);
        }
      },
    },
    {
      name: 'srt-handshake',
      seeds: [conclusionSeed()],
      run(input) {
        const packet = parsePacket(input);
        if (!packet.control) {
          return;
        }
        const hs = parseHandshake(packet.cif);
        for (const extension of hs.extensions) {
          if (extension.type === ExtensionType.hsreq) {
            parseSrtHandshakeInfo(extension.content);
          } else if (extension.type === ExtensionType.streamId) {
            parseStreamIdExtension(extension.content);
          }
        }
        readConclusion(hs, 120, 0);
      },
    },
    {
      name: 'srt-key-material',
      seeds: [keyMaterialSeed()],
      run(input) {
        parseKeyMaterial(input);
      },
    },
    {
      name: 'srt-connection',
      seeds: connectionSeeds(),
      run(input) {
        const packet = parsePacket(input);
        const target = connection();
        if (packet.control) {
          target.control(packet);
        } else {
          target.data(packet);
        }
        target.receiver.tick(Number.MAX_SAFE_INTEGER / 2);
      },
    },
    {
      name: 'srt-sender',
      seeds: [
        writeControlPacket(ControlType.nak, 0, 0, 0, 9, writeLossList([{ from: 100, to: 103 }])),
        writeControlPacket(ControlType.nak, 0, 0, 0, 9, writeLossList([{ from: 0x7ffffff0, to: 120 }])),
        writeControlPacket(
          ControlType.ack,
          0,
          3,
          0,
          9,
          writeAckCif({
            lastAcknowledged: 104,
            rttUs: 1,
            rttVarianceUs: 1,
            availableBuffer: 1,
            packetsPerSecond: 1,
            linkCapacity: 1,
            bytesPerSecond: 1,
          }),
        ),
      ],
      run(input) {
        const packet = parsePacket(input);
        const now = sending.now();
        if (packet.control && packet.type === ControlType.ack) {
          sending.sender.ack(packet.info, packet.cif, now);
        } else if (packet.control && packet.type === ControlType.nak) {
          sending.sender.nak(packet.cif);
        }
        sending.sender.tick(now);
      },
    },
  ];
})();
