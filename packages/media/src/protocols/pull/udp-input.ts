/**
 * MPEG-TS over UDP pulled in process (ISO/IEC 13818-1 transport packets, 188 bytes each, usually
 * seven to a datagram as senders write them; RFC 768 datagrams, RFC 1112 / RFC 4607 group
 * membership): `udp://<group>:<port>` joins the group (any-source, or source-specific with
 * `sources=`), `udp://<sender>:<port>` binds the port and keeps only the checked sender's
 * datagrams, `udp://0.0.0.0:<port>` takes every sender (a private class, opted into). The named
 * host is the address the guard checked; nothing is dialled. `localaddr` picks the interface of a
 * group. No ffmpeg child: the datagrams go straight to the MPEG-TS demuxer.
 *
 * Reads are batched where the kernel filters the senders (ADR 0066, net/datagram-drain.ts): a
 * socket that takes every sender is drained every 20 ms from the start; a unicast pull from one
 * named sender learns the sender's port from its first datagram, connects the socket to that
 * address and port (the kernel then drops everyone else's) and is drained from then on; after
 * a second without datagrams it disconnects and learns the port again (a restarted sender sends
 * from a new one). Several named senders, or a group with `sources=`, keep one event per datagram
 * (only the sender address tells them apart). A drained socket of a stream nobody watches is read
 * once per merged-read period (`udpInputs({ mergedReadMs })`, as RTMP publishers are; ADR 0077)
 * while a period's datagrams fill at most a quarter of its kernel buffer.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import { DatagramDrain, DrainTimer } from '../../net/datagram-drain.js';
import { checkedAddress, PullRefusedError } from './address-guard.js';
import { EndOnce, type PullEndKind, type PullInput, type PullInputContext } from './pull-input.js';
import { readTransportStream } from './ts-reader.js';

/** Kernel receive buffer asked for (bursts of a few Mb/s sources between event-loop turns). */
const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;

/** Drained sockets are read this often (a 208 KiB default kernel buffer holds 20 ms of ~40 Mb/s). */
const DRAIN_PERIOD_MS = 20;
/** A socket read once per merged-read period is read every DRAIN_PERIOD_MS when a period's bytes would fill more than this share of its kernel buffer. */
const MERGED_BUFFER_SHARE = 0.25;
/** A connected pull without a datagram for this long forgets its sender's port. */
const SENDER_QUIET_MS = 1000;

/** The timer every drained UDP pull of the process is read on (while watched, or without merged reads). */
const drains = new DrainTimer(DRAIN_PERIOD_MS, true);
/** The timers of unwatched drained pulls, by period. */
const mergedDrains = new Map<number, DrainTimer>();

/** Whether `address` is an IPv4 or IPv6 multicast group. */
export function isMulticastAddress(address: string): boolean {
  return /^(22[4-9]|23\d)\./.test(address) || address.toLowerCase().startsWith('ff');
}

/** Opens a UDP attempt whose socket is read every 20 ms. */
export function openUdpInput(context: PullInputContext): PullInput {
  return new UdpInput(context, undefined);
}

/** What UDP attempts share. */
export interface UdpInputOptions {
  /** Unwatched streams are read at most once per this many ms (0 or none: every 20 ms), as RTMP publishers are. */
  readonly mergedReadMs?: number;
}

/** Opens UDP attempts. */
export function udpInputs(options: UdpInputOptions = {}): (context: PullInputContext) => PullInput {
  const period = options.mergedReadMs ?? 0;
  let merged: DrainTimer | undefined;
  if (period > DRAIN_PERIOD_MS) {
    merged = mergedDrains.get(period) ?? new DrainTimer(period, true);
    mergedDrains.set(period, merged);
  }
  return (context) => new UdpInput(context, merged);
}

class UdpInput implements PullInput {
  private readonly end = new EndOnce();
  private socket: Socket | undefined;
  /** The sender address and port the socket is connected (or connecting) to. */
  private connecting: string | undefined;
  /** Datagram events since the last count reset (the switch to drained reads waits for a turn without any). */
  private events = 0;
  private stopDrain: (() => void) | undefined;

  constructor(
    private readonly context: PullInputContext,
    /** The timer of unwatched sockets (merged reads), if any. */
    private readonly merged: DrainTimer | undefined,
  ) {
    checkedAddress(context.guard, context.target.host).then(
      (address) => this.listen(address),
      (error: unknown) => this.failed(error as Error),
    );
  }

  get ended() {
    return this.end.ended;
  }

  stop(reason: string, kind: PullEndKind = 'stopped'): void {
    this.finish(kind, reason);
  }

  private listen(address: string): void {
    if (this.end.settled) {
      return;
    }
    const { target, sink, log } = this.context;
    sink.resolved(address);
    const params = target.url.searchParams;
    const multicast = isMulticastAddress(address);
    const everySender = address === '0.0.0.0' || address === '::';
    const sources =
      params
        .get('sources')
        ?.split(',')
        .filter((source) => isIP(source) !== 0) ?? [];
    const accepted = new Set(multicast || everySender ? sources : [address, ...sources]);
    const socket = createSocket({
      type: isIP(address) === 6 ? 'udp6' : 'udp4',
      reuseAddr: true,
      recvBufferSize: RECEIVE_BUFFER_BYTES,
    });
    this.socket = socket;
    const reader = readTransportStream(sink, log);
    const push = (datagram: Uint8Array) => {
      try {
        reader.push(datagram);
      } catch (error) {
        this.finish('failed', `unreadable MPEG-TS over UDP: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    // One named unicast sender: connect to it once its port is known, then drain.
    const learnsSender = !multicast && !everySender && accepted.size === 1;
    socket.on('message', (datagram: Buffer, from: RemoteInfo) => {
      this.events++;
      if (this.end.settled || (accepted.size > 0 && !accepted.has(from.address))) {
        return;
      }
      push(datagram);
      if (learnsSender && this.connecting === undefined) {
        this.connectTo(socket, from, push);
      }
    });
    socket.on('error', (error) => this.failed(error));
    const localAddress = params.get('localaddr') ?? undefined;
    socket.bind(Number(target.url.port), multicast ? undefined : everySender ? address : undefined, () => {
      if (accepted.size === 0) {
        this.drainFrom(socket, push);
      }
      if (!multicast) {
        return;
      }
      try {
        if (sources.length > 0) {
          for (const source of sources) {
            socket.addSourceSpecificMembership(source, address, localAddress);
          }
        } else {
          socket.addMembership(address, localAddress);
        }
      } catch (error) {
        this.failed(error as Error);
      }
    });
  }

  /**
   * The sender's port is known: connect to it; once a whole event-loop turn after the connect
   * brought no datagram event (the kernel queue was empty, so what came from other senders
   * before the connect went through the address filter), drain.
   */
  private connectTo(socket: Socket, from: RemoteInfo, push: (datagram: Uint8Array) => void): void {
    this.connecting = `${from.address}:${from.port}`;
    socket.connect(from.port, from.address, (error?: Error) => {
      if (this.end.settled || error) {
        // On an error: keep the events (and the address filter); later datagrams do not try again.
        return;
      }
      const quietTurn = () => {
        this.events = 0;
        // Between two check phases runs exactly one poll phase of the event loop.
        setImmediate(() => {
          if (this.end.settled) {
            return;
          }
          if (this.events > 0) {
            quietTurn();
          } else if (!this.drainFrom(socket, push, true)) {
            socket.disconnect();
            this.connecting = undefined;
          }
        });
      };
      setImmediate(quietTurn);
    });
  }

  /**
   * Reads `socket` every period from now on (undefined when it cannot be drained: events stay).
   * `connected`: forget the sender after SENDER_QUIET_MS without datagrams.
   */
  private drainFrom(
    socket: Socket,
    push: (datagram: Uint8Array) => void,
    connected = false,
  ): DatagramDrain | undefined {
    const drain = DatagramDrain.take(socket);
    if (!drain) {
      return undefined;
    }
    let heardAt = performance.now();
    let timer = drains;
    // What a merged period may bring: a quarter of the kernel's buffer (a fast source is read every 20 ms).
    const mergedBytes = this.merged ? socket.getRecvBufferSize() * MERGED_BUFFER_SHARE : 0;
    const read = () => {
      if (this.end.settled) {
        timer.remove(read);
        return;
      }
      let bytes = 0;
      const failed = drain.drain((datagram) => {
        bytes += datagram.byteLength;
        push(datagram);
      });
      const now = performance.now();
      if (bytes > 0) {
        heardAt = now;
      }
      if (failed !== undefined) {
        this.finish(
          'failed',
          `UDP source ${this.context.target.host}:${this.context.target.url.port} failed: ${failed}`,
        );
      } else if (connected && now - heardAt > SENDER_QUIET_MS) {
        timer.remove(read);
        socket.disconnect();
        this.connecting = undefined;
        drain.release();
      } else if (this.merged) {
        const next = this.mergedReads(bytes, timer, mergedBytes) ? this.merged : drains;
        if (next !== timer) {
          timer.remove(read);
          timer = next;
          timer.add(read);
        }
      }
    };
    this.stopDrain = () => timer.remove(read);
    timer.add(read);
    return drain;
  }

  /**
   * Whether the socket is read once per merged period from now on: nobody watches the stream, and
   * at the rate of the last read (`bytes` in one period of `timer`) a merged period fits the buffer.
   */
  private mergedReads(bytes: number, timer: DrainTimer, mergedBytes: number): boolean {
    const merged = this.merged;
    if (!merged || this.context.sink.watched?.() !== false) {
      return false;
    }
    return (bytes * merged.periodMs) / timer.periodMs < mergedBytes;
  }

  private failed(error: Error): void {
    if (error instanceof PullRefusedError) {
      this.finish(error.kind, error.message);
      return;
    }
    const code = (error as NodeJS.ErrnoException).code ?? error.message;
    this.finish('failed', `UDP source ${this.context.target.host}:${this.context.target.url.port} failed: ${code}`);
  }

  private finish(kind: PullEndKind, message: string): void {
    if (this.end.settle({ kind, message })) {
      this.stopDrain?.();
      try {
        this.socket?.close();
      } catch {
        // Closed already (the bind failed): nothing is left to release.
      }
    }
  }
}
