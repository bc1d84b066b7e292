/**
 * WHIP ingest (RFC 9725) and WHEP playback (draft-ietf-wish-whep) for one node, independent of
 * any web framework: the HTTP routes hand over the request body and headers, and send back the
 * WebRtcResponse. Sessions live here by unguessable id; their URLs are
 * `<base>/whip/sessions/<id>` and `<base>/whep/sessions/<id>` (PATCH for trickle ICE, DELETE).
 */
import { randomBytes } from 'node:crypto';
import { ParseError, ProtocolError } from '../../errors.js';
import { AlreadyPublishingError, type Hub } from '../../hub/hub.js';
import type { LiveStream } from '../../hub/live-stream.js';
import type { Logger, PublishAuthorizer } from '../../ports.js';
import { videoTrackOf } from '../../stream/track.js';
import { iceServerLinks, type WebRtcNetworkOptions } from './peer-options.js';
import { type OfferSummary, summarizeOffer } from './sdp/offer-summary.js';
import { parseTrickleFragment } from './sdp/trickle-fragment.js';
import type { OpusSource, WhepViewer } from './whep/whep-session.js';
import { WhepSession } from './whep/whep-session.js';

/** Who a WHEP session plays to (its viewer session, where its bytes are reported). */
export type { WhepViewer } from './whep/whep-session.js';

import { WhipSession } from './whip/whip-session.js';

/** An answer for the HTTP layer. */
export interface WebRtcResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: string;
}

/** Shares one AAC→Opus transcoder per stream among its viewers. */
export interface OpusSources {
  /** Opus for `stream` (AAC audio); call the returned release when the viewer leaves. */
  acquire(stream: LiveStream): { source: OpusSource; release(): void };
  /** Transcoders running now. */
  readonly running: number;
}

/** Options of the service. */
export interface WebRtcServiceOptions {
  readonly hub: Hub;
  readonly authorizer: PublishAuthorizer;
  readonly log: Logger;
  readonly network: WebRtcNetworkOptions;
  /** AAC→Opus for WHEP viewers of RTMP/SRT streams; without it those viewers get video only. */
  readonly opus?: OpusSources;
  /** How often a WHIP session re-checks that its key is still active (default 5 s). */
  readonly keyCheckIntervalMs?: number;
  /** ICE + DTLS must complete within this long (default 15 s). */
  readonly connectTimeoutMs?: number;
  /** Keyframe requests to WHIP publishers (default every 2 s). */
  readonly keyframeIntervalMs?: number;
  /** Most WHIP + WHEP sessions at once on this node (default 1000). */
  readonly maxSessions?: number;
}

/** Which session family a URL names. */
export type SessionKind = 'whip' | 'whep';

const SDP = 'application/sdp';
const TRICKLE = 'application/trickle-ice-sdpfrag';

/** The node's WHIP and WHEP endpoints. */
export class WebRtcService {
  private readonly whip = new Map<string, WhipSession>();
  private readonly whep = new Map<string, WhepSession>();
  private readonly publishers = new Map<string, WhipSession>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly options: WebRtcServiceOptions) {}

  /** AAC→Opus transcoders running (one per stream with WebRTC viewers and AAC audio). */
  get opusTranscoders(): number {
    return this.options.opus?.running ?? 0;
  }

  /** Live WHIP sessions (tests, metrics). */
  get publishSessions(): readonly WhipSession[] {
    return [...this.whip.values()];
  }

  /** Live WHEP sessions (tests, metrics). */
  get playSessions(): readonly WhepSession[] {
    return [...this.whep.values()];
  }

  /** WHIP: publishes `streamKey` with the offer; `sessionBase` is the absolute or rooted `…/whip/sessions`. */
  async publish(
    streamKey: string | undefined,
    offer: string,
    contentType: string | undefined,
    sessionBase: string,
  ): Promise<WebRtcResponse> {
    if (!streamKey) {
      return withHeaders(
        refuse(401, 'stream_key_missing', 'send the stream key as Authorization: Bearer <streamKey>'),
        {
          'www-authenticate': 'Bearer',
        },
      );
    }
    const checked = this.checkOffer(offer, contentType, 'send');
    if ('status' in checked) {
      return checked;
    }
    const sent = checked.media.filter(
      (m) => (m.kind === 'video' || m.kind === 'audio') && m.direction !== 'recvonly' && m.direction !== 'inactive',
    );
    const video = sent.find((m) => m.kind === 'video');
    const audio = sent.find((m) => m.kind === 'audio');
    const videoCodec = (['h264', 'av1', 'vp9'] as const).find((codec) => video?.codecs.includes(codec)) ?? 'h264';
    if (video && !video.codecs.includes(videoCodec)) {
      return refuse(
        406,
        'unsupported_codec',
        `video must be H.264, AV1 or VP9 (offered: ${video.codecs.join(', ') || 'none'}); VP8 is not a codec Airwave carries`,
      );
    }
    if (audio && !audio.codecs.includes('opus')) {
      return refuse(406, 'unsupported_codec', `audio must be Opus (offered: ${audio.codecs.join(', ') || 'none'})`);
    }
    if (this.full()) {
      return busy();
    }
    const grant = await this.options.authorizer.authorize(streamKey, 'whip');
    if (!grant) {
      return refuse(403, 'stream_key_refused', 'the stream key is unknown or no longer active');
    }
    let publisher: ReturnType<Hub['publish']>;
    try {
      publisher = this.options.hub.publish(grant, 'whip');
    } catch (error) {
      if (error instanceof AlreadyPublishingError) {
        return refuse(409, 'already_publishing', 'this stream already has an active publisher; stop it first');
      }
      throw error;
    }
    const id = sessionId();
    const log = this.options.log.child({ protocol: 'whip', streamId: grant.streamId });
    const session = new WhipSession(
      id,
      publisher,
      checked,
      {
        network: this.options.network,
        videoCodec,
        ...(this.options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: this.options.connectTimeoutMs }),
        ...(this.options.keyframeIntervalMs === undefined
          ? {}
          : { keyframeIntervalMs: this.options.keyframeIntervalMs }),
      },
      log,
      (ended) => this.forgetWhip(ended),
    );
    this.whip.set(id, session);
    this.publishers.set(grant.streamId, session);
    let answer: string;
    try {
      answer = await session.answer(offer);
    } catch (error) {
      session.close(`negotiation failed: ${(error as Error).message}`);
      if (!publisher.resumed) {
        this.options.hub.stop(grant.streamId, 'WHIP negotiation failed');
      }
      return refuse(400, 'bad_offer', (error as Error).message);
    }
    this.watchKey(session, streamKey, grant.streamId);
    log.info({ sessionId: id }, 'WHIP session answered');
    return this.created(answer, `${sessionBase}/${id}`);
  }

  /** WHEP: plays the live stream `playbackId` to `viewer`. */
  async play(
    playbackId: string,
    offer: string,
    contentType: string | undefined,
    viewer: WhepViewer,
    sessionBase: string,
  ): Promise<WebRtcResponse> {
    const checked = this.checkOffer(offer, contentType, 'receive');
    if ('status' in checked) {
      return checked;
    }
    const stream = this.options.hub.getByPlaybackId(playbackId);
    if (!stream) {
      return refuse(404, 'playback_id_not_found', `no live stream with playback id ${playbackId}`);
    }
    const description = stream.description;
    if (!description) {
      return withHeaders(refuse(503, 'not_ready', 'the stream has not declared its tracks yet'), {
        'retry-after': '1',
      });
    }
    const video = videoTrackOf(description);
    if (video && video.codec !== 'h264') {
      return refuse(415, 'unsupported_codec', `WebRTC playback carries H.264; this stream is ${video.codec}`);
    }
    if (video && stream.gopCache.some((unit) => unit.trackId === video.id && unit.pts !== unit.dts)) {
      return refuse(
        409,
        'b_frames',
        'the stream has B-frames, which WebRTC cannot carry; publish without B-frames (e.g. x264 -bf 0 or a baseline profile)',
      );
    }
    if (this.full()) {
      return busy();
    }
    const audio = description.tracks.find((track) => track.kind === 'audio');
    const opus = audio && audio.codec !== 'opus' ? this.options.opus?.acquire(stream) : undefined;
    const id = sessionId();
    const log = this.options.log.child({ protocol: 'whep', streamId: stream.streamId });
    const session = new WhepSession(
      id,
      stream,
      viewer,
      { requestKeyframe: (streamId) => this.requestKeyframe(streamId), ...(opus ? { opus: opus.source } : {}) },
      {
        network: this.options.network,
        ...(this.options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: this.options.connectTimeoutMs }),
      },
      log,
      (ended) => {
        opus?.release();
        this.whep.delete(ended.id);
      },
    );
    this.whep.set(id, session);
    let answer: string;
    try {
      answer = await session.answer(offer);
    } catch (error) {
      session.close(`negotiation failed: ${(error as Error).message}`);
      return refuse(400, 'bad_offer', (error as Error).message);
    }
    if (!session.sendsMedia) {
      session.close('no track could be negotiated');
      return refuse(406, 'unsupported_codec', 'the offer accepts neither H.264 video nor Opus audio');
    }
    return this.created(answer, `${sessionBase}/${id}`);
  }

  /** PATCH with a trickle-ICE fragment (RFC 9725 §4.3). */
  async patch(kind: SessionKind, id: string, body: string, contentType: string | undefined): Promise<WebRtcResponse> {
    const session = (kind === 'whip' ? this.whip : this.whep).get(id);
    if (!session) {
      return refuse(404, 'session_not_found', 'no such WebRTC session');
    }
    if (mediaType(contentType) !== TRICKLE) {
      return refuse(415, 'unsupported_media_type', `PATCH takes ${TRICKLE}`);
    }
    try {
      await session.addCandidates(parseTrickleFragment(body));
    } catch (error) {
      if (error instanceof ProtocolError && /ICE restart/.test(error.message)) {
        return refuse(422, 'ice_restart_unsupported', error.message);
      }
      if (error instanceof ParseError || error instanceof ProtocolError) {
        return refuse(400, 'bad_fragment', error.message);
      }
      return refuse(400, 'bad_fragment', `the candidates could not be applied: ${(error as Error).message}`);
    }
    return { status: 204, headers: {}, body: '' };
  }

  /** DELETE: ends a session (RFC 9725 §4.2). */
  delete(kind: SessionKind, id: string): WebRtcResponse {
    const session = (kind === 'whip' ? this.whip : this.whep).get(id);
    if (!session) {
      return refuse(404, 'session_not_found', 'no such WebRTC session');
    }
    session.close(
      kind === 'whip' ? 'the publisher ended the session (DELETE)' : 'the viewer ended the session (DELETE)',
    );
    if (kind === 'whip') {
      this.options.hub.stop(session.streamId, 'the publisher ended the session (DELETE)');
    }
    return { status: 200, headers: {}, body: '' };
  }

  /** Asks the WHIP publisher of a stream for a keyframe; false when it has none. */
  requestKeyframe(streamId: string): boolean {
    return this.publishers.get(streamId)?.requestKeyframe() ?? false;
  }

  /** Ends every session (shutdown). */
  close(): void {
    for (const session of [...this.whip.values()]) {
      session.close('server shutting down');
    }
    for (const session of [...this.whep.values()]) {
      session.close('server shutting down');
    }
  }

  private checkOffer(
    offer: string,
    contentType: string | undefined,
    want: 'send' | 'receive',
  ): OfferSummary | WebRtcResponse {
    if (mediaType(contentType) !== SDP) {
      return refuse(415, 'unsupported_media_type', `the offer must be sent as ${SDP}`);
    }
    let summary: OfferSummary;
    try {
      summary = summarizeOffer(offer);
    } catch (error) {
      return refuse(400, 'bad_offer', (error as Error).message);
    }
    const useful = summary.media.some(
      (m) =>
        (m.kind === 'video' || m.kind === 'audio') &&
        (m.direction === 'sendrecv' || m.direction === (want === 'send' ? 'sendonly' : 'recvonly')),
    );
    if (!useful) {
      return refuse(
        400,
        'bad_offer',
        want === 'send' ? 'the offer sends no audio or video' : 'the offer receives no audio or video',
      );
    }
    return summary;
  }

  private created(answer: string, location: string): WebRtcResponse {
    const links = iceServerLinks(this.options.network.iceServers);
    return {
      status: 201,
      headers: {
        'content-type': SDP,
        location,
        'accept-patch': TRICKLE,
        ...(links.length > 0 ? { link: links } : {}),
      },
      body: answer,
    };
  }

  private watchKey(session: WhipSession, streamKey: string, streamId: string): void {
    const interval = this.options.keyCheckIntervalMs ?? 5000;
    const timer = setInterval(() => {
      this.options.authorizer.authorize(streamKey, 'whip').then(
        (grant) => {
          if (!grant || grant.streamId !== streamId) {
            session.close('the stream key was deleted or rotated out');
          }
        },
        (error: unknown) => this.options.log.warn({ err: error, sessionId: session.id }, 'stream key re-check failed'),
      );
    }, interval);
    timer.unref();
    this.timers.set(session.id, timer);
  }

  private forgetWhip(session: WhipSession): void {
    this.whip.delete(session.id);
    clearInterval(this.timers.get(session.id));
    this.timers.delete(session.id);
    if (this.publishers.get(session.streamId) === session) {
      this.publishers.delete(session.streamId);
    }
  }

  private full(): boolean {
    return this.whip.size + this.whep.size >= (this.options.maxSessions ?? 1000);
  }
}

function sessionId(): string {
  return randomBytes(18).toString('base64url');
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function busy(): WebRtcResponse {
  return withHeaders(refuse(503, 'too_many_sessions', 'this node has no room for another WebRTC session'), {
    'retry-after': '5',
  });
}

function withHeaders(response: WebRtcResponse, extra: Record<string, string>): WebRtcResponse {
  return { ...response, headers: { ...response.headers, ...extra } };
}

/** A JSON error answer `{error: {reason, message}}`, the same shape as the playback routes'. */
function refuse(status: number, reason: string, message: string): WebRtcResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify({ error: { reason, message } }),
  };
}
