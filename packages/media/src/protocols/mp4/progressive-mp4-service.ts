/**
 * Progressive fragmented MP4 of a live stream (ISO/IEC 14496-12 movie fragments over one chunked
 * HTTP response): the init segment for every track, then fragments from the last keyframe on.
 * Each viewer reads through its own bounded QueuedReader, so a slow socket drops that viewer to
 * the next keyframe instead of growing memory or slowing anyone else.
 */
import { Readable } from 'node:stream';
import { buildInitSegment } from '../../formats/fmp4/init-segment.js';
import type { Hub } from '../../hub/hub.js';
import type { LiveStream } from '../../hub/live-stream.js';
import type { QueuedReader, ReaderLimits, ReaderStats } from '../../hub/reader.js';
import type { StreamDescription } from '../../stream/track.js';
import { notReady, type PlayRequest, type PlayResponse, playbackIdNotFound } from '../shared/http-types.js';
import { LiveFragmenter, type LiveFragmenterOptions } from './live-fragmenter.js';
import { sameTracks } from './same-tracks.js';

/** Options of the progressive MP4 service. */
export interface ProgressiveMp4Options extends LiveFragmenterOptions {
  /** Queue limits of each viewer's reader (defaults of QueuedReader). */
  readonly readerLimits?: ReaderLimits;
  /** Bytes the response stream buffers before it stops reading units (default 256 KiB). */
  readonly highWaterMark?: number;
}

/** One open progressive MP4 response, for metrics and tests. */
export interface Mp4SessionInfo {
  readonly playbackId: string;
  readonly sessionId: string;
  /** The reader's counters: delivered, dropped (units) and dropEvents. */
  readonly reader: Readonly<ReaderStats>;
  /** Units waiting in the reader's bounded queue. */
  readonly queuedUnits: number;
  /** Bytes handed to the response stream so far. */
  readonly bytesQueued: number;
  /** Bytes the response stream holds that the socket has not taken yet. */
  readonly buffered: number;
  /** Fragments written after the init segment. */
  readonly fragments: number;
}

/** Content-Type of progressive MP4. */
export const MP4_TYPE = 'video/mp4';

/** Serves `/play/<id>.mp4` for every live stream of a hub. */
export class ProgressiveMp4Service {
  private readonly sessions = new Set<Mp4Session>();

  constructor(
    private readonly hub: Hub,
    private readonly options: ProgressiveMp4Options = {},
  ) {}

  /** Opens a live fragmented MP4 response; the body is a Readable that ends with the stream. */
  async handle(req: PlayRequest): Promise<PlayResponse> {
    const stream = this.hub.getByPlaybackId(req.playbackId);
    if (!stream) {
      return playbackIdNotFound(req.playbackId);
    }
    const description = stream.description;
    if (!description || description.tracks.length === 0) {
      return notReady('the stream has not declared its tracks yet');
    }
    const session = new Mp4Session(stream, description, req, this.options, (closed) => this.sessions.delete(closed));
    this.sessions.add(session);
    return {
      status: 200,
      headers: { 'content-type': MP4_TYPE, 'cache-control': 'no-store' },
      body: session.body,
    };
  }

  /** Open responses. */
  active(): Mp4SessionInfo[] {
    return [...this.sessions].map((session) => session.info());
  }
}

/** One viewer: reader → fragmenter → Readable, pulling only while the Readable wants data. */
class Mp4Session {
  readonly body: Readable;
  private readonly reader: QueuedReader;
  private readonly fragmenter: LiveFragmenter;
  private readonly closeViewer: () => void;
  private wanted = false;
  private pumping = false;
  private seenDropEvents = 0;
  private bytesQueued = 0;

  constructor(
    private readonly stream: LiveStream,
    private description: StreamDescription,
    private readonly req: PlayRequest,
    options: ProgressiveMp4Options,
    onClosed: (session: Mp4Session) => void,
  ) {
    this.reader = stream.openReader(options.readerLimits);
    this.fragmenter = new LiveFragmenter(description.tracks, options);
    this.closeViewer = stream.viewers.open(req.sessionId, 'mp4');
    const abort = (): void => {
      this.body.destroy();
    };
    this.body = new Readable({
      highWaterMark: options.highWaterMark ?? 256 * 1024,
      read: () => this.want(),
      destroy: (error, callback) => {
        this.reader.close();
        callback(error);
      },
    });
    this.body.once('close', () => {
      req.signal.removeEventListener('abort', abort);
      this.reader.close();
      this.closeViewer();
      onClosed(this);
    });
    this.write(buildInitSegment(description.tracks));
    if (req.signal.aborted) {
      abort();
    } else {
      req.signal.addEventListener('abort', abort, { once: true });
    }
  }

  info(): Mp4SessionInfo {
    return {
      playbackId: this.stream.playbackId,
      sessionId: this.req.sessionId,
      reader: { ...this.reader.stats },
      queuedUnits: this.reader.length,
      bytesQueued: this.bytesQueued,
      buffered: this.body.readableLength,
      fragments: this.fragmenter.fragments,
    };
  }

  private want(): void {
    this.wanted = true;
    if (this.pumping) {
      return;
    }
    this.pumping = true;
    this.pump().catch((error: unknown) => {
      this.body.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  }

  /** Moves units into the body until it is full, the reader ends or the body is destroyed. */
  private async pump(): Promise<void> {
    try {
      while (this.wanted && !this.body.destroyed) {
        const unit = this.reader.shift() ?? (await this.reader.next());
        if (this.body.destroyed) {
          return;
        }
        if (!unit || !this.continuesDescription()) {
          this.finish();
          return;
        }
        const dropEvents = this.reader.stats.dropEvents;
        const afterGap = dropEvents !== this.seenDropEvents;
        this.seenDropEvents = dropEvents;
        for (const fragment of this.fragmenter.push(unit, afterGap)) {
          this.write(fragment);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** False when the publisher changed its tracks (a new init segment would be needed). */
  private continuesDescription(): boolean {
    const current = this.stream.description;
    if (current === this.description) {
      return true;
    }
    if (!current || !sameTracks(current.tracks, this.description.tracks)) {
      return false;
    }
    this.description = current;
    return true;
  }

  /** The stream ended (or changed its tracks): write what is batched and end the body. */
  private finish(): void {
    const last = this.fragmenter.flush();
    if (last) {
      this.write(last);
    }
    this.body.push(null);
  }

  private write(bytes: Uint8Array): void {
    this.bytesQueued += bytes.byteLength;
    this.wanted = this.body.push(bytes);
  }
}
