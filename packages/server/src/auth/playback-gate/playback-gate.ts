/**
 * The playback gate the `/play` routes call on every media request: derives the viewer session
 * the same way the routes do, asks PlaybackAccessService, and answers in the routes' terms
 * (on allow, `jwt=<token>` for every URI a playlist lists; on deny, 401/403 with a reason). A
 * refused request from the owner's dashboard (its session cookie) is allowed as an owner preview.
 */
import type { AccessDecision, PlaybackAccessService } from '../../domain/playback-access/playback-access.service.js';
import type {
  PlaybackAllowed,
  PlaybackDenied,
  PlaybackGate,
  PlaybackGateInput,
} from '../../http/play/playback-gate.js';
import { viewerSessionId } from '../../http/play/viewer-session.js';
import type { OwnerCheck } from './owner-preview.js';

/** The request URL without the token (it is neither logged nor sent to webhooks). */
export function redactToken(url: string): string {
  return url.includes('jwt=') ? url.replace(/([?&])jwt=[^&#]*/g, '$1jwt=redacted') : url;
}

/** The session query value of a request (`?session=`), as the routes read it. */
function sessionParam(query: unknown): string | undefined {
  if (query && typeof query === 'object' && 'session' in query) {
    const value: unknown = (query as { session: unknown }).session;
    const first: unknown = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' ? first : undefined;
  }
  return undefined;
}

/** Translates a decision into the routes' answer. */
export function gateAnswer(decision: AccessDecision, sessionId: string): PlaybackAllowed | PlaybackDenied {
  if (decision.allowed) {
    return {
      allowed: true,
      sessionId,
      ...(decision.token ? { uriQuery: `jwt=${encodeURIComponent(decision.token)}` } : {}),
    };
  }
  return {
    allowed: false,
    status: decision.status === 401 ? 401 : 403,
    reason: decision.reason,
    message: decision.detail,
  };
}

/** PlaybackGate backed by the playback access service. */
export class AccessControlGate implements PlaybackGate {
  constructor(
    private readonly access: PlaybackAccessService,
    private readonly isOwner?: OwnerCheck,
  ) {}

  /** Decides one playback request. */
  async authorize(input: PlaybackGateInput): Promise<PlaybackAllowed | PlaybackDenied> {
    const { request } = input;
    const sessionId = viewerSessionId(request.ip, request.headers['user-agent'], sessionParam(request.query));
    const decision = await this.access.decide({
      playbackId: input.playbackId,
      token: input.token,
      viewerIp: request.ip,
      requestUrl: redactToken(request.url),
      protocol: input.protocol,
      sessionId,
    });
    if (!decision.allowed && this.isOwner && request.headers.cookie) {
      const tenantId = await this.access.ownerTenant(input.playbackId);
      if (tenantId && (await this.isOwner(request.headers, tenantId))) {
        return { allowed: true, sessionId };
      }
    }
    return gateAnswer(decision, sessionId);
  }
}
