/**
 * The edge side of the Airwave relay (relay-wire.ts): applies decoded frames to this node's hub
 * as a publisher of the stream, so every output (packagers, MP4, the GOP cache) serves it as if
 * it were ingested here. The origin's arrival time of each unit is pinned on the hub's clock
 * while it is written, so history and availability times match the origin's.
 */
import { ProtocolError } from '../../errors.js';
import type { Hub, Publisher } from '../../hub/hub.js';
import type { PublishGrant } from '../../ports.js';
import type { StreamDescription } from '../../stream/track.js';
import type { RelayEvent } from './relay-wire.js';

/** What applying a frame changed for the caller. */
export type RelayProgress = 'caught-up' | 'ended' | undefined;

/** Publishes relayed frames of one stream into a hub. */
export class RelayIntoHub {
  private publisher: Publisher | undefined;
  private description: StreamDescription | undefined;
  private finished = false;
  /** Whether this relay ever published (only then is the hub's stream its own to stop). */
  private published = false;

  /** `pinArrival` pins (a number) or releases (undefined) the hub's clock (ReplayClock.pin). */
  constructor(
    private readonly hub: Hub,
    private readonly grant: PublishGrant,
    private readonly pinArrival: (at: number | undefined) => void,
  ) {}

  /** Whether the relayed stream is live on this node. */
  get publishing(): boolean {
    return this.publisher !== undefined;
  }

  /** Applies one frame; throws ProtocolError when it names another stream or the hub refuses it. */
  apply(event: RelayEvent): RelayProgress {
    if (this.finished) {
      return 'ended';
    }
    switch (event.type) {
      case 'hello':
        if (event.hello.streamId !== this.grant.streamId || event.hello.playbackId !== this.grant.playbackId) {
          throw new ProtocolError(`the origin relays stream ${event.hello.streamId}, not ${this.grant.streamId}`);
        }
        return undefined;
      case 'description':
        this.description = event.description;
        this.ensurePublisher().setDescription(event.description);
        return undefined;
      case 'unit': {
        const publisher = this.publisher ?? (this.description ? this.resume(this.description) : undefined);
        if (publisher) {
          this.pinArrival(event.arrivedAt);
          try {
            publisher.write(event.unit);
          } finally {
            this.pinArrival(undefined);
          }
        }
        return undefined;
      }
      case 'interrupted':
        this.publisher?.close("the origin's publisher dropped");
        this.publisher = undefined;
        return undefined;
      case 'caught-up':
        return 'caught-up';
      case 'end':
        this.close(event.reason);
        return 'ended';
    }
  }

  /** Ends the relayed stream on this node (the relay stopped or failed); a stream it never published is left alone. */
  close(reason: string): void {
    if (this.finished) {
      return;
    }
    this.finished = true;
    this.publisher = undefined;
    if (this.published) {
      this.hub.stop(this.grant.streamId, reason);
    }
  }

  private resume(description: StreamDescription): Publisher {
    const publisher = this.ensurePublisher();
    publisher.setDescription(description);
    return publisher;
  }

  private ensurePublisher(): Publisher {
    if (!this.publisher) {
      this.publisher = this.hub.publish(this.grant, 'relay');
      this.published = true;
    }
    return this.publisher;
  }
}
