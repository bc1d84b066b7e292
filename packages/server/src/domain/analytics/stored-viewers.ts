/**
 * Viewer sessions of stored content — recordings (DVR), chapters, clips and VOD assets — for
 * analytics (issue 20 §1: every playback session is recorded, live or not). A live stream counts
 * its viewers in its hub stream; stored content has no hub stream, so this keeps one
 * `ViewerSessions` per content played on this node, followed by the session recorder while it has
 * sessions and dropped once its last session ends (request-based protocols end after the idle time).
 */
import { type PlaybackProtocol, ViewerSessions } from '@airwave/media';
import type { ContentRef, ViewerSessionRecorder } from './session-recorder.js';

interface Held {
  readonly sessions: ViewerSessions;
  readonly stopRecording: () => void;
}

/** The viewer sessions of every stored content played on this node. */
export class StoredViewers {
  private readonly byContent = new Map<string, Held>();

  /** Sessions end `idleMs` after their last request (as a live stream's do). */
  constructor(
    private readonly recorder: Pick<ViewerSessionRecorder, 'follow'>,
    private readonly idleMs: number,
  ) {}

  /** A request of `sessionId` for `content` over `protocol`: opens the session or keeps it alive. */
  touch(content: ContentRef, sessionId: string, protocol: PlaybackProtocol): void {
    this.held(content).sessions.touch(sessionId, protocol);
  }

  /** Opens a connection-bound session (a progressive MP4 read); call the returned function when it ends. */
  open(content: ContentRef, sessionId: string, protocol: PlaybackProtocol): () => void {
    return this.held(content).sessions.open(sessionId, protocol);
  }

  /** Contents with open sessions. */
  get contents(): number {
    return this.byContent.size;
  }

  /** Ends the sessions idle since before `now − idleMs` (their sweepers do this on their own too). */
  sweep(now = Date.now()): void {
    for (const held of [...this.byContent.values()]) {
      held.sessions.sweep(now);
    }
  }

  /** Ends every session (shutdown), so the recorder writes them. */
  close(): void {
    const all = [...this.byContent.values()];
    this.byContent.clear();
    for (const held of all) {
      held.sessions.clear();
      held.stopRecording();
    }
  }

  private held(content: ContentRef): Held {
    const existing = this.byContent.get(content.contentId);
    if (existing) {
      return existing;
    }
    const sessions = new ViewerSessions(this.idleMs);
    // Subscribed first, so the recorder sees the last disconnect before the content is dropped.
    const stopRecording = this.recorder.follow(content, sessions);
    sessions.subscribe((event) => {
      if (event.type === 'disconnect' && sessions.count === 0 && this.byContent.get(content.contentId) === held) {
        this.byContent.delete(content.contentId);
        stopRecording();
      }
    });
    const held: Held = { sessions, stopRecording };
    this.byContent.set(content.contentId, held);
    return held;
  }
}
