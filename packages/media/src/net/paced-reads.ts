/**
 * Merged socket reads for ingest connections (the idea of SRS's `mr`, merged read). Node reads a
 * socket as soon as bytes arrive; ffmpeg writes every RTMP message as two writes (chunk header,
 * then payload), so a 3 Mb/s stream costs about a hundred event-loop wake-ups, reads and JS
 * callbacks per second. A held socket stops reading after a read, and one shared timer restarts
 * every held socket once per period: the kernel gathers the period's bytes and one read hands
 * them over. Sockets read into one buffer their owner gives them and reuses for every read
 * (Node's `onread`), so a read allocates nothing and goes through no stream machinery: the
 * handler copies what it keeps. Fresh memory per read would double the ArrayBuffer churn of
 * ingest (the chunk reader copies messages out anyway), and V8 runs a full collection for every
 * 64 MiB of new external memory.
 */
import { Socket } from 'node:net';
import { uninitialisedBytes } from '../bits/bytes.js';

/**
 * Called with each read, the socket it came from and whether the read emptied the kernel's
 * buffer (it returned less than it could hold); return false to stop reading (`ReadPacer.hold`
 * restarts it). Stop only after a read that emptied the buffer, or a fast sender is throttled to
 * one buffer per period. `bytes` is overwritten by the next read: copy what you keep.
 */
export type ReadHandler = (bytes: Uint8Array, socket: Socket, drained: boolean) => boolean;

/** Size of a read buffer: one read takes at most this much of what the kernel holds. */
export const READ_BUFFER_BYTES = 64 * 1024;

/**
 * A buffer for `adoptWithReusedReads`: uninitialised memory (a read hands over only the bytes it
 * wrote), as a plain Uint8Array.
 */
export function newReadBuffer(): Uint8Array {
  return uninitialisedBytes(READ_BUFFER_BYTES);
}

/** Internal shape of an accepted socket we take the handle from (Node has no public API for it). */
interface SocketWithHandle {
  _handle: unknown;
}

/**
 * Re-wraps a socket accepted by a `pauseOnConnect` server so every read lands in `readBuffer`
 * (shared by all the sockets of one owner: each read is handled before the next one starts) and
 * goes to `onRead` as a view of it, without Node's Readable machinery; undefined when the
 * connection was already gone (no handle).
 * `net.Server` cannot pass Node's `onread` option to the sockets it accepts, so the accepted
 * socket's handle moves to a new Socket that has it; the accepted one is destroyed without its
 * handle (which keeps the server's connection count right).
 */
export function adoptWithReusedReads(
  accepted: Socket,
  readBuffer: Uint8Array,
  onRead: ReadHandler,
): Socket | undefined {
  const inner = accepted as unknown as SocketWithHandle;
  const handle = inner._handle;
  inner._handle = null;
  accepted.destroy();
  if (handle === null || handle === undefined) {
    return undefined;
  }
  const options = {
    handle,
    readable: true,
    writable: true,
    onread: {
      buffer: readBuffer,
      callback: (nread: number, buffer: Uint8Array) =>
        onRead(buffer.subarray(0, nread), socket, nread < buffer.byteLength),
    },
  };
  const socket = new Socket(options as unknown as ConstructorParameters<typeof Socket>[0]);
  return socket;
}

function resumeIfOpen(socket: Socket): void {
  if (!socket.destroyed) {
    socket.resume();
  }
}

/** Restarts held sockets once per period, all on one timer that runs only while any socket is held. */
export class ReadPacer {
  private held: Socket[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly periodMs: number) {}

  /** Whether reads are paced at all (a period of 0 reads as bytes arrive). */
  get enabled(): boolean {
    return this.periodMs > 0;
  }

  /** Holds a socket whose read handler returned false; it reads again on the next tick. */
  hold(socket: Socket): void {
    this.held.push(socket);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.resumeHeld(), this.periodMs);
    }
  }

  /** Restarts one held socket now (not held: nothing happens); it is held again after its next emptying read if its handler says so. */
  release(socket: Socket): void {
    const at = this.held.indexOf(socket);
    if (at >= 0) {
      this.held.splice(at, 1);
      resumeIfOpen(socket);
    }
  }

  /** Stops the timer (held sockets stay stopped; they are being closed). */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.held = [];
  }

  /** Restarts every held socket now (the timer's tick); stops the timer when none was held. */
  resumeHeld(): void {
    const due = this.held;
    if (due.length === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    this.held = [];
    for (const socket of due) {
      resumeIfOpen(socket);
    }
  }
}
