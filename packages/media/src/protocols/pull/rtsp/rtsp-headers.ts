/**
 * The RTSP header fields the client reads (RFC 2326 §12): Session with its timeout (§12.37),
 * the interleaved channels of Transport (§12.39), RTP-Info's `rtptime` per track (§12.33), and a
 * Content-Base without user information.
 */
import type { RtspTrackPlan } from './rtsp-plan.js';
import { RtspEnd } from './rtsp-requests.js';

/** A Session header's id and timeout (seconds, when given). */
export function sessionOf(header: string | undefined): { id: string; timeoutS?: number } | undefined {
  if (!header) {
    return undefined;
  }
  const [id = '', ...params] = header.split(';');
  const timeout = params.map((param) => /^\s*timeout\s*=\s*(\d+)/i.exec(param)?.[1]).find(Boolean);
  return { id: id.trim(), ...(timeout ? { timeoutS: Math.max(1, Number(timeout)) } : {}) };
}

/** The RTP and RTCP channels a SETUP answer's Transport names (`asked` when it names none); throws RtspEnd for UDP. */
export function interleavedChannels(transport: string, asked: number): { rtp: number; rtcp: number } {
  const interleaved = /interleaved=(\d+)(?:-(\d+))?/i.exec(transport);
  if (/RTP\/AVP(?!\/TCP)/i.test(transport) && !interleaved) {
    throw new RtspEnd('failed', 'the RTSP source answered SETUP without interleaved TCP transport');
  }
  const rtp = interleaved ? Number(interleaved[1]) : asked;
  const rtcp = interleaved?.[2] === undefined ? rtp + 1 : Number(interleaved[2]);
  return { rtp, rtcp };
}

/** A URL without user information (a Content-Base may repeat the credentials). */
export function withoutUserInfo(uri: string): string {
  try {
    const url = new URL(uri);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    throw new RtspEnd('failed', 'the RTSP source sent an invalid Content-Base');
  }
}

/** RTP-Info (RFC 2326 §12.33) `rtptime` per planned track, matched by control URL (or by order). */
export function rtpTimes(header: string | undefined, tracks: readonly RtspTrackPlan[]): (number | undefined)[] {
  const times: (number | undefined)[] = tracks.map(() => undefined);
  if (!header) {
    return times;
  }
  const entries = header.split(/,(?=\s*url=)/i).map((entry) => {
    const url = /url=([^;]+)/i.exec(entry)?.[1]?.trim();
    const rtptime = /rtptime=(\d+)/i.exec(entry)?.[1];
    return { url, rtptime: rtptime === undefined ? undefined : Number(rtptime) >>> 0 };
  });
  const last = (uri: string) => uri.replace(/\/+$/, '').split('/').at(-1);
  entries.forEach((entry, order) => {
    if (!entry.url || entry.rtptime === undefined) {
      return;
    }
    const url = entry.url;
    let index = tracks.findIndex((track) => track.media.control === url);
    if (index < 0) {
      index = tracks.findIndex((track) => last(track.media.control) === last(url));
    }
    if (index < 0 && entries.length === tracks.length) {
      index = order;
    }
    if (index >= 0) {
      times[index] = entry.rtptime;
    }
  });
  return times;
}
