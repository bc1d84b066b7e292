/**
 * Fuzz targets of the RTMP parsers (Adobe RTMP Specification 1.0 §5.2-§5.3, §7): the server
 * handshake and the chunk stream reader with command decoding. Seeds are what our publisher and
 * ffmpeg-shaped sessions send.
 */

import { amf0Object } from '../../formats/amf0/amf0-value.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { ChunkReader } from './chunk-reader.js';
import { ChunkWriter } from './chunk-writer.js';
import { commandMessage, parseCommand, parseDataMessage } from './command.js';
import { ClientHandshake, ServerHandshake } from './handshake.js';
import { MessageType, setChunkSizeMessage, userControlMessage, windowAckSizeMessage } from './messages.js';

function sessionBytes(): Uint8Array {
  const writer = new ChunkWriter();
  const parts = [
    writer.write(commandMessage(0, 'connect', 1, amf0Object({ app: 'live', tcUrl: 'rtmp://127.0.0.1/live' }))),
    writer.write(setChunkSizeMessage(256)),
  ];
  writer.chunkSize = 256;
  parts.push(
    writer.write(windowAckSizeMessage(2_500_000)),
    writer.write(commandMessage(0, 'createStream', 2, null)),
    writer.write(commandMessage(1, 'publish', 3, null, 'key', 'live')),
    writer.write(userControlMessage(6, 1234)),
    writer.write({
      csid: 6,
      typeId: MessageType.video,
      streamId: 1,
      timestamp: 0x1000000,
      payload: new Uint8Array(600).fill(0x17),
    }),
    Uint8Array.of(0x46, 0, 0, 40, 0, 0, 3, 8, 0xaf, 1, 0x21),
    Uint8Array.of(0x86, 0, 0, 33, 0x27),
    Uint8Array.of(0xc6, 0x27),
  );
  return new Uint8Array(Buffer.concat(parts));
}

/** Handshake and chunk stream targets. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'rtmp-server-handshake',
    seeds: [
      new Uint8Array(Buffer.concat([new ClientHandshake().hello(), new Uint8Array(1536), Uint8Array.of(2, 0, 0)])),
    ],
    run(input) {
      const server = new ServerHandshake();
      const half = input.byteLength >> 1;
      server.push(input.subarray(0, half));
      server.push(input.subarray(half));
    },
  },
  {
    name: 'rtmp-chunk-reader',
    seeds: [sessionBytes()],
    run(input) {
      const reader = new ChunkReader({ maxMessageSize: 64 * 1024 });
      const cut = input.byteLength % 97;
      const messages = [...reader.push(input.subarray(0, cut)), ...reader.push(input.subarray(cut))];
      for (const message of messages) {
        if (message.typeId === MessageType.commandAmf0 || message.typeId === MessageType.commandAmf3) {
          parseCommand(message);
        } else if (message.typeId === MessageType.dataAmf0 || message.typeId === MessageType.dataAmf3) {
          parseDataMessage(message);
        }
      }
    },
  },
];
