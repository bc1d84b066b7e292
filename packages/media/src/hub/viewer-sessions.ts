/**
 * Counts playback sessions of one stream across protocols. Connection-bound protocols (MP4,
 * WHEP) open and close sessions; request-based ones (HLS, DASH) touch a session id and are
 * counted until they go quiet for `idleMs`.
 */

import { IdleSweeper } from './idle-sweeper.js';

/** Playback protocols that count as viewers. */
export type PlaybackProtocol = 'hls' | 'llhls' | 'dash' | 'mp4' | 'webrtc';

/** A viewer connecting or leaving. */
export interface ViewerEvent {
  readonly type: 'connect' | 'disconnect';
  readonly sessionId: string;
  readonly protocol: PlaybackProtocol;
  readonly at: Date;
  /** On disconnect: milliseconds from the session's first request (or connection) to its last one (or close). */
  readonly durationMs?: number;
}

interface Session {
  protocol: PlaybackProtocol;
  startedAt: number;
  lastSeen: number;
  open: number;
}

/** Tracks active viewer sessions of one stream. */
export class ViewerSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly listeners = new Set<(event: ViewerEvent) => void>();
  private readonly sweeper: IdleSweeper;

  /** Request-based sessions expire after `idleMs` without a request. */
  constructor(private readonly idleMs = 30_000) {
    this.sweeper = new IdleSweeper(
      idleMs,
      () => this.sweep(),
      () => this.sessions.size > 0,
    );
  }

  /** Active sessions. */
  get count(): number {
    return this.sessions.size;
  }

  /** Subscribes to connect/disconnect events; returns the unsubscribe function. */
  subscribe(listener: (event: ViewerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records a request of a request-based session. */
  touch(sessionId: string, protocol: PlaybackProtocol, now = Date.now()): void {
    const session = this.sessions.get(sessionId);
    if (session) {
      session.lastSeen = now;
      return;
    }
    this.sessions.set(sessionId, { protocol, startedAt: now, lastSeen: now, open: 0 });
    this.emit('connect', sessionId, protocol);
    this.sweeper.ensure();
  }

  /** Opens a connection-bound session; call the returned function when it ends. */
  open(sessionId: string, protocol: PlaybackProtocol): () => void {
    const existing = this.sessions.get(sessionId);
    if (existing) {
      existing.open++;
    } else {
      const now = Date.now();
      this.sessions.set(sessionId, { protocol, startedAt: now, lastSeen: now, open: 1 });
      this.emit('connect', sessionId, protocol);
    }
    let closed = false;
    return () => {
      if (closed) {
        return;
      }
      closed = true;
      const session = this.sessions.get(sessionId);
      if (!session) {
        return;
      }
      session.open--;
      session.lastSeen = Date.now();
      if (session.open <= 0) {
        this.sessions.delete(sessionId);
        this.emitEnd(sessionId, session);
      }
    };
  }

  /** Ends idle request-based sessions; returns how many ended. */
  sweep(now = Date.now()): number {
    let ended = 0;
    for (const [id, session] of this.sessions) {
      if (session.open === 0 && now - session.lastSeen > this.idleMs) {
        this.sessions.delete(id);
        this.emitEnd(id, session);
        ended++;
      }
    }
    return ended;
  }

  /** Ends every session (stream gone). */
  clear(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      this.emitEnd(id, session, session.open > 0 ? now : session.lastSeen);
    }
    this.sessions.clear();
    this.sweeper.stop();
  }

  /** Emits the disconnect of a session that lasted until `end` (its last request or its close). */
  private emitEnd(sessionId: string, session: Session, end = session.lastSeen): void {
    this.emit('disconnect', sessionId, session.protocol, Math.max(0, end - session.startedAt));
  }

  private emit(type: ViewerEvent['type'], sessionId: string, protocol: PlaybackProtocol, durationMs?: number): void {
    const event: ViewerEvent = {
      type,
      sessionId,
      protocol,
      at: new Date(),
      ...(durationMs === undefined ? {} : { durationMs }),
    };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not break counting for the others.
      }
    }
  }
}
