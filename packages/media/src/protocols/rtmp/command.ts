/**
 * RTMP command and data messages (Adobe RTMP Specification 1.0 §7.1.1-7.1.2, §7.2): AMF0
 * encoding of NetConnection/NetStream commands and their `_result`/`_error`/`onStatus` replies.
 * AMF3 command and data messages are read when their body is AMF0 after the leading 0 byte.
 */
import { ParseError } from '../../errors.js';
import { decodeAmf0 } from '../../formats/amf0/amf0-decode.js';
import { encodeAmf0 } from '../../formats/amf0/amf0-encode.js';
import { type Amf0Object, type Amf0Value, amf0Object, amf0Properties } from '../../formats/amf0/amf0-value.js';
import { Csid, MessageType, type RtmpMessage } from './messages.js';

/** A decoded command: name, transaction id, command object and the remaining arguments. */
export interface RtmpCommand {
  readonly name: string;
  readonly transactionId: number;
  readonly object: Amf0Object | undefined;
  readonly args: readonly Amf0Value[];
}

const COMMAND_LIMITS = { maxDepth: 8, maxValues: 1024 } as const;

/** Returns the AMF0 body of a command or data message (skipping the AMF3 format byte). */
export function amf0Body(message: RtmpMessage): Uint8Array {
  if (message.typeId === MessageType.commandAmf3 || message.typeId === MessageType.dataAmf3) {
    if (message.payload[0] !== 0) {
      throw new ParseError('AMF3-encoded command bodies are not supported; the first byte must be 0 (AMF0 follows)');
    }
    return message.payload.subarray(1);
  }
  return message.payload;
}

/** Decodes a command message; ParseError when it is not name, transaction id, object... */
export function parseCommand(message: RtmpMessage): RtmpCommand {
  const values = decodeAmf0(amf0Body(message), COMMAND_LIMITS);
  const [name, transactionId, object, ...args] = values;
  if (typeof name !== 'string') {
    throw new ParseError('command message does not start with a command name string');
  }
  return {
    name,
    transactionId: typeof transactionId === 'number' && Number.isFinite(transactionId) ? transactionId : 0,
    object: object === undefined ? undefined : amf0Properties(object),
    args,
  };
}

/** Decodes a data message (`@setDataFrame`, `onMetaData`, ...) into its AMF0 values. */
export function parseDataMessage(message: RtmpMessage): Amf0Value[] {
  return decodeAmf0(amf0Body(message), COMMAND_LIMITS);
}

/** An AMF0 command message on the command chunk stream. */
export function commandMessage(streamId: number, ...values: Amf0Value[]): RtmpMessage {
  return {
    csid: Csid.command,
    typeId: MessageType.commandAmf0,
    streamId,
    timestamp: 0,
    payload: encodeAmf0(...values),
  };
}

/** An AMF0 data message. */
export function dataMessage(streamId: number, ...values: Amf0Value[]): RtmpMessage {
  return { csid: Csid.data, typeId: MessageType.dataAmf0, streamId, timestamp: 0, payload: encodeAmf0(...values) };
}

/** `onStatus(0, null, {level, code, description})` on a message stream (§7.2.2). */
export function onStatusMessage(
  streamId: number,
  level: 'status' | 'error' | 'warning',
  code: string,
  description: string,
  extra: Record<string, Amf0Value> = {},
): RtmpMessage {
  return commandMessage(streamId, 'onStatus', 0, null, amf0Object({ level, code, description, ...extra }));
}
