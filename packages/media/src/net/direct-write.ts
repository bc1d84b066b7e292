/**
 * Writes to a plain TCP socket with one `write(2)` on its descriptor while Node holds nothing of
 * it (ADR 0082): no `Writable` state, write request, callback tick or async context per write, as
 * `socket.write` makes for each. What the kernel does not take (a partial write, EAGAIN with its
 * send buffer full, or an error) goes to `socket.write`, which queues it behind nothing, waits for
 * room and reports errors as usual; later writes take the same path until Node's queue is empty
 * again, so bytes keep their order. TLS sockets (whose descriptor carries records, not these
 * bytes) and sockets whose handle is not reachable always use `socket.write`. Node has no public
 * API for the descriptor: it is read from the socket's internal handle (as `paced-reads.ts` does).
 */

import { writeSync } from 'node:fs';
import type { Socket } from 'node:net';
import { type DescriptorHandle, onDescriptor } from './descriptor-call.js';

/** The internal handle of a TCP socket (no public API). */
interface TcpHandle extends DescriptorHandle {
  readonly writeQueueSize: number;
}

/** The socket's TCP handle when a write may go straight to its descriptor: plain TCP, connected, nothing queued. */
function idleHandle(socket: Socket): TcpHandle | undefined {
  if ((socket as { encrypted?: boolean }).encrypted || socket.connecting || socket.writableLength !== 0) {
    return undefined;
  }
  const handle = (socket as unknown as { _handle?: Partial<TcpHandle> | null })._handle;
  if (typeof handle?.fd !== 'number' || handle.fd < 0 || handle.writeQueueSize !== 0) {
    return undefined;
  }
  return handle as TcpHandle;
}

/**
 * Sends `bytes` on `socket`, by `write(2)` when Node holds nothing of the socket's output, else
 * (and for what the kernel did not take) by `socket.write`. Answers as `socket.write` does: false
 * once Node's queue is above its high-water mark (wait for 'drain' before sending more).
 */
export function writeDirect(socket: Socket, bytes: Uint8Array): boolean {
  const handle = socket.writableEnded || socket.destroyed ? undefined : idleHandle(socket);
  if (handle) {
    const sent = onDescriptor(handle, (fd) => writeSync(fd, bytes, 0, bytes.byteLength));
    if (sent === bytes.byteLength) {
      return true;
    }
    if (typeof sent === 'number') {
      return socket.write(bytes.subarray(sent));
    }
  }
  return socket.write(bytes);
}
