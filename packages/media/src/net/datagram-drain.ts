/**
 * UDP sockets read in batches on a timer instead of one event per datagram (RFC 768 datagrams;
 * ADR 0066). Node's dgram wakes the event loop, allocates a buffer and an address object and
 * calls into JavaScript for every datagram; a 3 Mb/s MPEG-TS source is ~300 of those a second. A
 * drained socket stops Node's receiving (libuv no longer polls it) and its owner reads everything
 * the kernel holds with plain `read(2)` calls into one reused buffer, once per period: no
 * wake-up, allocation or address object per datagram. `read` gives no sender address, so only
 * sockets whose senders the kernel already filters are drained: connected ones (the SRT caller,
 * a UDP pull once it knows its sender's port) and ones that take every sender. Node has no
 * public API for this: the socket's handle is taken from its internal state (as
 * `net/paced-reads.ts` does for TCP); when it is not there the owner keeps Node's events.
 */
import type { Socket } from 'node:dgram';
import { readSync, writeSync } from 'node:fs';
import { uninitialisedBytes } from '../bits/bytes.js';

/** The largest UDP payload: one read buffer holds any datagram. */
const MAX_DATAGRAM_BYTES = 65_536;

/** Most datagrams one drain reads (a flood cannot hold the event loop). */
const MAX_DATAGRAMS_PER_DRAIN = 8192;

/** The one buffer every drain reads into (each datagram is handled before the next read). */
const readBuffer = uninitialisedBytes(MAX_DATAGRAM_BYTES);

/** The internal UDP handle of a dgram socket (no public API). */
interface UdpHandle {
  readonly fd: number;
  recvStart(): number;
  recvStop(): number;
}

function handleOf(socket: Socket): UdpHandle | undefined {
  const state = Object.getOwnPropertySymbols(socket).find((symbol) => symbol.description === 'state symbol');
  const handle =
    state === undefined ? undefined : (socket as unknown as Record<symbol, { handle?: unknown }>)[state]?.handle;
  const candidate = handle as Partial<UdpHandle> | undefined;
  if (
    typeof candidate?.fd !== 'number' ||
    candidate.fd < 0 ||
    typeof candidate.recvStart !== 'function' ||
    typeof candidate.recvStop !== 'function'
  ) {
    return undefined;
  }
  return candidate as UdpHandle;
}

/** Reads one datagram of the socket `fd` into the shared read buffer; its size. */
const readDatagram = (fd: number): number => readSync(fd, readBuffer, 0, MAX_DATAGRAM_BYTES, null);

/**
 * Runs one system call on the handle's descriptor, asked again each time (a handler may close the
 * socket, and its number may be reused): what it returns, or the error code of its failure. The
 * error is made without a stack trace, which would cost ~2 µs on every read that finds the socket
 * empty.
 */
function onSocket(handle: UdpHandle, call: (fd: number) => number): number | string {
  const fd = handle.fd;
  if (fd < 0) {
    return 'EBADF';
  }
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return call(fd);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EIO';
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** Called with each datagram a drain reads: a view of the shared read buffer, valid until it returns (copy what you keep). */
export type DatagramHandler = (bytes: Uint8Array) => void;

/** A bound (or connected) UDP socket whose datagrams its owner reads with `drain()`. */
export class DatagramDrain {
  private constructor(
    private readonly socket: Socket,
    private readonly handle: UdpHandle,
  ) {}

  /**
   * Stops Node's receiving on a bound socket and hands its reads to the caller; undefined when
   * this Node version's socket has no reachable handle (keep the 'message' events then).
   */
  static take(socket: Socket): DatagramDrain | undefined {
    const handle = handleOf(socket);
    if (!handle) {
      return undefined;
    }
    handle.recvStop();
    return new DatagramDrain(socket, handle);
  }

  /**
   * Reads every datagram the kernel holds for the socket into `onDatagram`; answers the error
   * code of a read that failed (ECONNREFUSED on a connected socket whose peer is gone, …), or
   * undefined once the socket is empty.
   */
  drain(onDatagram: DatagramHandler): string | undefined {
    for (let count = 0; count < MAX_DATAGRAMS_PER_DRAIN; count++) {
      // The read that finds the socket empty throws EAGAIN: the socket is drained.
      const size = onSocket(this.handle, readDatagram);
      if (typeof size === 'string') {
        return size === 'EAGAIN' || size === 'EWOULDBLOCK' ? undefined : size;
      }
      onDatagram(readBuffer.subarray(0, size));
    }
    return undefined;
  }

  /**
   * Sends one datagram on a connected socket with `write(2)`: no request object, callback or
   * async context as `socket.send` makes for each. Answers the error code of a send that failed
   * (ECONNREFUSED once the peer is gone, EAGAIN when the kernel's send buffer is full: the
   * datagram is lost, as a datagram may be), or undefined.
   */
  send(bytes: Uint8Array): string | undefined {
    const sent = onSocket(this.handle, (fd) => writeSync(fd, bytes, 0, bytes.byteLength));
    return typeof sent === 'string' ? sent : undefined;
  }

  /** Gives the socket back to Node's 'message' events. */
  release(): void {
    if (handleOf(this.socket) === this.handle) {
      this.handle.recvStart();
    }
  }
}

/** Runs every registered drain once per period on one timer, which runs only while any is registered. */
export class DrainTimer {
  private readonly drains = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;

  /** `keepsAlive`: the timer holds the event loop open as the sockets it reads would. */
  constructor(
    /** How often the drains run, ms. */
    readonly periodMs: number,
    private readonly keepsAlive = false,
  ) {}

  /** Runs `drain` every period from now on. */
  add(drain: () => void): void {
    this.drains.add(drain);
    if (!this.timer) {
      this.timer = setInterval(() => {
        for (const each of this.drains) {
          each();
        }
      }, this.periodMs);
      if (!this.keepsAlive) {
        this.timer.unref();
      }
    }
  }

  /** Stops running `drain`. */
  remove(drain: () => void): void {
    this.drains.delete(drain);
    if (this.drains.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
