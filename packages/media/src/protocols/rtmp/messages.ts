/**
 * RTMP message types and protocol control messages (Adobe RTMP Specification 1.0 §5.4, §6.2,
 * §7.1): Set Chunk Size, Abort, Acknowledgement, Window Acknowledgement Size, Set Peer
 * Bandwidth and User Control events.
 */

/** RTMP message type ids. */
export const MessageType = {
  setChunkSize: 1,
  abort: 2,
  acknowledgement: 3,
  userControl: 4,
  windowAckSize: 5,
  setPeerBandwidth: 6,
  audio: 8,
  video: 9,
  dataAmf3: 15,
  sharedObjectAmf3: 16,
  commandAmf3: 17,
  dataAmf0: 18,
  sharedObjectAmf0: 19,
  commandAmf0: 20,
  aggregate: 22,
} as const;

/** User Control event types (§7.1.7). */
export const UserControlEvent = {
  streamBegin: 0,
  streamEof: 1,
  streamDry: 2,
  setBufferLength: 3,
  streamIsRecorded: 4,
  pingRequest: 6,
  pingResponse: 7,
} as const;

/** One complete RTMP message. */
export interface RtmpMessage {
  /** Chunk stream it arrived on or is sent on. */
  readonly csid: number;
  readonly typeId: number;
  /** Message stream id (0 for control and NetConnection commands). */
  readonly streamId: number;
  /** 32-bit millisecond timestamp (absolute, deltas resolved). */
  readonly timestamp: number;
  readonly payload: Uint8Array;
}

/** Chunk stream ids this implementation sends on. */
export const Csid = { control: 2, command: 3, audio: 4, video: 6, data: 5 } as const;

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0);
  return out;
}

function control(typeId: number, payload: Uint8Array): RtmpMessage {
  return { csid: Csid.control, typeId, streamId: 0, timestamp: 0, payload };
}

/** Set Chunk Size (§5.4.1); the top bit must be 0. */
export function setChunkSizeMessage(size: number): RtmpMessage {
  return control(MessageType.setChunkSize, u32(size & 0x7fffffff));
}

/** Acknowledgement with the sequence number (bytes received so far, §5.4.3). */
export function acknowledgementMessage(bytesReceived: number): RtmpMessage {
  return control(MessageType.acknowledgement, u32(bytesReceived));
}

/** Window Acknowledgement Size (§5.4.4). */
export function windowAckSizeMessage(size: number): RtmpMessage {
  return control(MessageType.windowAckSize, u32(size));
}

/** Set Peer Bandwidth (§5.4.5); limit type 2 = dynamic. */
export function setPeerBandwidthMessage(size: number, limitType: 0 | 1 | 2): RtmpMessage {
  const payload = new Uint8Array(5);
  new DataView(payload.buffer).setUint32(0, size);
  payload[4] = limitType;
  return control(MessageType.setPeerBandwidth, payload);
}

/** A User Control event with one 32-bit argument (§7.1.7). */
export function userControlMessage(event: number, value: number): RtmpMessage {
  const payload = new Uint8Array(6);
  const view = new DataView(payload.buffer);
  view.setUint16(0, event);
  view.setUint32(2, value >>> 0);
  return control(MessageType.userControl, payload);
}

/** Reads the 32-bit big-endian value protocol control messages carry, or undefined when too short. */
export function readU32(payload: Uint8Array, offset = 0): number | undefined {
  if (payload.byteLength < offset + 4) {
    return undefined;
  }
  return new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint32(offset);
}
