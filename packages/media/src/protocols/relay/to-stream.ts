/**
 * The edge side of the Airwave relay (relay-wire.ts): applies decoded frames to this node's hub
 * as a publisher of the stream, so every output (packagers, MP4, the GOP cache) serves it as if
 * it were ingested here. The origin's arrival time of each unit is pinned on the hub's clock
 * while it is written, so history and availability times match the origin's. After the edge lost
 * its connection and connected again, the origin's history repeats what was already written: a
 * relay made with `resumeAfter` (the last origin timestamps per track of the connection before)
 * writes nothing until a video key frame past them (or any after the history), so the hub
 * resumes the stream at a clean random access point with no unit written twice.
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
  private caughtUp = false;
  /** Set while units of a resumed relay are skipped until a key frame past `resumeAfter`. */
  private awaitingKey: boolean;
  /** The origin's last timestamp written per track. */
  private readonly lastDts = new Map<number, number>();

  /**
   * `pinArrival` pins (a number) or releases (undefined) the hub's clock (ReplayClock.pin);
   * `resumeAfter` is the `written` of the relay this one replaces after a lost connection.
   */
  constructor(
    private readonly hub: Hub,
    private readonly grant: PublishGrant,
    private readonly pinArrival: (at: number | undefined) => void,
    private readonly resumeAfter?: ReadonlyMap<number, number>,
  ) {
    this.awaitingKey = resumeAfter !== undefined;
  }

  /** The origin's timestamp of the last unit written, per track. */
  get written(): ReadonlyMap<number, number> {
    return this.lastDts;
  }

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
        if (this.skips(event.unit.trackId, event.unit.dts, event.unit.key)) {
          return undefined;
        }
        this.lastDts.set(event.unit.trackId, event.unit.dts);
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
        this.caughtUp = true;
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

  /** Leaves the hub's stream waiting for a publisher (RECONNECTING) while the edge connects again. */
  detach(reason: string): void {
    if (this.finished) {
      return;
    }
    this.finished = true;
    this.publisher?.close(reason);
    this.publisher = undefined;
  }

  /** Whether a unit of a resumed relay repeats what the relay before it wrote. */
  private skips(trackId: number, dts: number, key: boolean): boolean {
    const after = this.resumeAfter;
    if (!after) {
      return false;
    }
    const repeated = !this.caughtUp && dts <= (after.get(trackId) ?? Number.NEGATIVE_INFINITY);
    if (this.awaitingKey) {
      const tracks = this.description?.tracks ?? [];
      const video = tracks.some((track) => track.kind === 'video');
      const isVideo = tracks.some((track) => track.id === trackId && track.kind === 'video');
      if (!key || repeated || (video && !isVideo)) {
        return true;
      }
      this.awaitingKey = false;
      return false;
    }
    return repeated;
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
