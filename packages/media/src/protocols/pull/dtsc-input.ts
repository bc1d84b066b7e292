/**
 * DTSC pull (MistServer's native protocol; `src/input/input_dtsc.cpp` and
 * `src/output/output_dtsc.cpp` of MistServer read as the description): connect over TCP to
 * `dtsc://host[:4200]/<stream>`, send a `DTCM` `{cmd: "play", stream}`, answer each `ping` with
 * `{cmd: "ok"}`, then read the `DTSC` header (tracks) and `DTP2` media packets. A `DTCM` `error`
 * ends the attempt with the source's message; `reset` announces a new header.
 */
import { connect, type Socket } from 'node:net';
import { ParseError, ProtocolError, UnsupportedError } from '../../errors.js';
import { dtmi } from '../../formats/dtsc/dtmi.js';
import { type DtscPacket, DtscPacketReader, encodeDtscCommand } from '../../formats/dtsc/dtsc-packet.js';
import { checkedAddress, PullRefusedError } from './address-guard.js';
import { DtscToStream } from './dtsc-to-stream.js';
import { EndOnce, type PullEndKind, type PullInput, type PullInputContext } from './pull-input.js';
import { DTSC_DEFAULT_PORT } from './pull-target.js';

/** Longest error text a source may put into an event. */
const MAX_SOURCE_MESSAGE = 200;

/** What this client calls itself in `play`. */
export const DTSC_CLIENT_VERSION = 'Airwave pull';

/** Opens a DTSC attempt. */
export function openDtscInput(context: PullInputContext): PullInput {
  return new DtscInput(context);
}

class DtscInput implements PullInput {
  private readonly end = new EndOnce();
  private readonly reader = new DtscPacketReader();
  private readonly converter = new DtscToStream();
  private readonly port: number;
  private socket: Socket | undefined;

  constructor(private readonly context: PullInputContext) {
    const { url } = context.target;
    this.port = url.port === '' ? DTSC_DEFAULT_PORT : Number(url.port);
    checkedAddress(context.guard, context.target.host).then(
      (address) => this.dial(address),
      (error: unknown) => this.failed(error as Error),
    );
  }

  get ended() {
    return this.end.ended;
  }

  stop(reason: string, kind: PullEndKind = 'stopped'): void {
    this.finish(kind, reason);
  }

  private dial(address: string): void {
    if (this.end.settled) {
      return;
    }
    this.context.sink.resolved(address);
    const streamName = decodeURIComponent(this.context.target.url.pathname.replace(/^\/+/, ''));
    const socket = connect({ host: address, port: this.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('connect', () => {
      socket.write(encodeDtscCommand({ cmd: 'play', version: DTSC_CLIENT_VERSION, stream: streamName }));
    });
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('error', (error) => this.failed(error));
    socket.on('close', () =>
      this.finish('source_ended', `the DTSC source ${address}:${this.port} closed the connection`),
    );
  }

  private received(chunk: Buffer): void {
    if (this.end.settled) {
      return;
    }
    try {
      for (const packet of this.reader.push(chunk)) {
        this.packet(packet);
        if (this.end.settled) {
          return;
        }
      }
    } catch (error) {
      const known = error instanceof ParseError || error instanceof ProtocolError || error instanceof UnsupportedError;
      if (!known) {
        this.context.log.error({ err: error }, 'DTSC input failed');
      }
      this.finish('failed', known ? `bad DTSC data: ${error.message}` : `DTSC input failed: ${String(error)}`);
    }
  }

  private packet(packet: DtscPacket): void {
    const { sink, log } = this.context;
    if (packet.kind === 'data') {
      const unit = this.converter.unit(packet);
      if (unit) {
        sink.unit(unit);
      }
      return;
    }
    if (packet.kind === 'header') {
      const description = this.converter.header(packet.body);
      if (this.converter.skipped.length > 0) {
        log.info({ skipped: this.converter.skipped }, 'DTSC tracks left out');
      }
      if (!description) {
        const skipped = this.converter.skipped.join('; ');
        this.finish('failed', `the DTSC source has no track this service carries (${skipped})`);
        return;
      }
      sink.describe(description);
      return;
    }
    const cmd = dtmi.text(packet.body, 'cmd');
    if (cmd === 'ping') {
      this.socket?.write(encodeDtscCommand({ cmd: 'ok', msg: 'Pong!' }));
    } else if (cmd === 'error') {
      const said = (dtmi.text(packet.body, 'msg') ?? 'no message').slice(0, MAX_SOURCE_MESSAGE);
      this.finish('failed', `the DTSC source refused: ${said}`);
    }
  }

  private failed(error: Error): void {
    if (error instanceof PullRefusedError) {
      this.finish(error.kind, error.message);
      return;
    }
    const code = (error as NodeJS.ErrnoException).code ?? error.message;
    this.finish('failed', `DTSC connection to ${this.context.target.host}:${this.port} failed: ${code}`);
  }

  private finish(kind: PullEndKind, message: string): void {
    if (this.end.settle({ kind, message })) {
      this.socket?.destroy();
    }
  }
}
