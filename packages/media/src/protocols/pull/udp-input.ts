/**
 * MPEG-TS over UDP pulled in process (ISO/IEC 13818-1 transport packets, 188 bytes each, usually
 * seven to a datagram as senders write them; RFC 768 datagrams, RFC 1112 / RFC 4607 group
 * membership): `udp://<group>:<port>` joins the group (any-source, or source-specific with
 * `sources=`), `udp://<sender>:<port>` binds the port and keeps only the checked sender's
 * datagrams, `udp://0.0.0.0:<port>` takes every sender (a private class, opted into). The named
 * host is the address the guard checked; nothing is dialled. `localaddr` picks the interface of a
 * group. No ffmpeg child: the datagrams go straight to the MPEG-TS demuxer.
 */
import { createSocket, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import { checkedAddress, PullRefusedError } from './address-guard.js';
import { EndOnce, type PullEndKind, type PullInput, type PullInputContext } from './pull-input.js';
import { readTransportStream } from './ts-reader.js';

/** Kernel receive buffer asked for (bursts of a few Mb/s sources between event-loop turns). */
const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;

/** Whether `address` is an IPv4 or IPv6 multicast group. */
export function isMulticastAddress(address: string): boolean {
  return /^(22[4-9]|23\d)\./.test(address) || address.toLowerCase().startsWith('ff');
}

/** Opens a UDP attempt. */
export function openUdpInput(context: PullInputContext): PullInput {
  return new UdpInput(context);
}

class UdpInput implements PullInput {
  private readonly end = new EndOnce();
  private socket: Socket | undefined;

  constructor(private readonly context: PullInputContext) {
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
    socket.on('message', (datagram, from) => {
      if (this.end.settled || (accepted.size > 0 && !accepted.has(from.address))) {
        return;
      }
      try {
        reader.push(datagram);
      } catch (error) {
        this.finish('failed', `unreadable MPEG-TS over UDP: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    socket.on('error', (error) => this.failed(error));
    const localAddress = params.get('localaddr') ?? undefined;
    socket.bind(Number(target.url.port), multicast ? undefined : everySender ? address : undefined, () => {
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
      try {
        this.socket?.close();
      } catch {
        // Closed already (the bind failed): nothing is left to release.
      }
    }
  }
}
