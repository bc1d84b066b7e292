/**
 * The seam between a push session (protocols/push) and the transports that carry a stream to an
 * external platform (RTMP/RTMPS in protocols/rtmp, SRT in protocols/srt): one
 * connection that takes the stream's description and its units, with backpressure.
 */
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';

/** One open connection to a push destination. */
export interface PushOutput {
  /** Sends the tracks' configuration: first, and again whenever the description changes. */
  describe(description: StreamDescription): Promise<void>;
  /**
   * Sends one unit. Answers nothing when the transport took it and has room for more, or a
   * promise that resolves once it has room again (the destination reads slowly).
   */
  write(unit: MediaUnit): Promise<void> | undefined;
  /**
   * Sends a run of units in order, as `write` would one by one, but in one go (a transport that
   * can share the bytes of a run between the pushes of a stream implements it). Must not keep
   * `units`: the caller reuses the array.
   */
  writeBatch?(units: readonly MediaUnit[]): Promise<void> | undefined;
  /** Resolves once media reaches the destination (at once for RTMP, whose publish was acknowledged). */
  readonly ready: Promise<void>;
  /** Bytes handed to the network so far. */
  readonly bytesSent: number;
  /** Resolves with the reason once the connection ended, by either side. */
  readonly closed: Promise<string>;
  /** Ends the connection (cleanly when it can: unpublish, end of stream). */
  close(): Promise<void>;
}

/**
 * Resolves a destination host to the one address to dial, refusing what the node does not allow
 * (the private-range guard, asked at every connect). Throws with a reason a user may read.
 */
export type DestinationResolver = (host: string) => Promise<string>;

/**
 * Opens a connection to `uri` for a stream of `description`; rejects with a reason a user may
 * read. `shared` stands for the stream (the same object for every push of it): connections of one
 * stream may share work keyed by it.
 */
export type PushConnector = (
  uri: string,
  description: StreamDescription,
  resolve: DestinationResolver,
  shared: object,
) => Promise<PushOutput>;
