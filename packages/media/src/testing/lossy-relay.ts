/** A lossy, jittery UDP relay on loopback for SRT tests over a bad network. */
import { createSocket, type RemoteInfo } from 'node:dgram';
import { prng } from './fuzz.js';

/**
 * A UDP relay that drops `loss` of the caller's datagrams and delays each by a random 0 to
 * `jitterMs` (so they also arrive out of order); the listener's answers pass unchanged.
 */
export class LossyRelay {
  private readonly socket = createSocket('udp4');
  private readonly upstream = createSocket('udp4');
  private caller: RemoteInfo | undefined;
  private readonly random = prng(1234);
  private closed = false;
  forwarded = 0;
  dropped = 0;

  constructor(
    private readonly target: number,
    private readonly loss: number,
    private readonly jitterMs: number,
  ) {
    this.socket.on('message', (message, remote) => {
      this.caller = remote;
      if (this.random() < this.loss) {
        this.dropped++;
        return;
      }
      this.forwarded++;
      setTimeout(
        () => this.closed || this.upstream.send(message, this.target, '127.0.0.1'),
        this.random() * this.jitterMs,
      );
    });
    this.upstream.on('message', (message) => {
      const caller = this.caller;
      if (caller) {
        this.socket.send(message, caller.port, caller.address);
      }
    });
  }

  /** Binds the relay's port on 127.0.0.1; resolves with it. */
  listen(): Promise<number> {
    return new Promise((resolve) => this.socket.bind(0, '127.0.0.1', () => resolve(this.socket.address().port)));
  }

  /** Stops relaying. */
  close(): void {
    this.closed = true;
    this.socket.close();
    this.upstream.close();
  }
}
