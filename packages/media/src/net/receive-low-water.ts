/**
 * The kernel's receive low-water mark of a TCP socket (`SO_RCVLOWAT`, socket(7); ADR 0080). On
 * Linux, epoll reports a TCP socket readable only once it holds at least that many bytes (or the
 * peer closed it, or it failed), so a reader that knows a lower bound of the bytes it needs next
 * is not woken for fewer; a read still takes whatever is there. Node exposes no `setsockopt`: the
 * call goes through `koffi` (FFI, a prebuilt binary in its npm package) to the C library, on the
 * descriptor of the socket's handle (no public API, as in `net/paced-reads.ts`). Where either is
 * missing (another OS, no handle), nothing is set and the socket reads as before.
 */
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

/** `SOL_SOCKET` and `SO_RCVLOWAT` of Linux (asm-generic/socket.h). */
const SOL_SOCKET = 1;
const SO_RCVLOWAT = 18;

/**
 * Largest mark set: half the read buffer (`READ_BUFFER_BYTES`), under the kernel's cap (half the
 * receive buffer's limit), so one read takes what woke it and the receive window never has to
 * grow for it.
 */
export const MAX_RECEIVE_LOW_WATER = 32 * 1024;

type SetSockOpt = (fd: number, level: number, name: number, value: Int32Array, length: number) => number;

/** The C library's `setsockopt`, loaded on first use; null where it cannot be (not Linux, no koffi). */
let setsockopt: SetSockOpt | null | undefined;

function loadSetSockOpt(): SetSockOpt | null {
  if (process.platform !== 'linux') {
    return null;
  }
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const libc = koffi.load('libc.so.6');
    return libc.func('int setsockopt(int fd, int level, int name, const int *value, uint32_t length)') as SetSockOpt;
  } catch {
    return null;
  }
}

/** The internal handle of a TCP socket (no public API): its descriptor. */
function descriptorOf(socket: Socket): number {
  const handle = (socket as unknown as { _handle?: { fd?: unknown } | null })._handle;
  return typeof handle?.fd === 'number' ? handle.fd : -1;
}

/** One socket's low-water mark, set only when it changes (one system call each time). */
export class ReceiveLowWater {
  private current = 1;
  private failed = false;
  private readonly value = new Int32Array(1);

  constructor(private readonly socket: Socket) {}

  /** The mark in force (1, the kernel's default, until a `want` succeeded). */
  get bytes(): number {
    return this.current;
  }

  /**
   * Asks the kernel to wake the reader only once `bytes` are there (clamped to 1 …
   * `MAX_RECEIVE_LOW_WATER`); false when it could not be set (the socket then keeps waking on any
   * byte: nothing is set again).
   */
  want(bytes: number): boolean {
    const mark = Math.max(1, Math.min(MAX_RECEIVE_LOW_WATER, Math.floor(bytes)));
    if (mark === this.current) {
      return true;
    }
    if (this.failed) {
      return false;
    }
    setsockopt ??= loadSetSockOpt();
    const fd = descriptorOf(this.socket);
    this.value[0] = mark;
    if (setsockopt === null || fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, this.value, 4) !== 0) {
      this.failed = true;
      return false;
    }
    this.current = mark;
    return true;
  }
}
