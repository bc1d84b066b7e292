/**
 * The session description of an RTSP DESCRIBE (RFC 8866 SDP as RFC 2326 §C / RFC 7826 §D use
 * it): each media section's first payload format with its `rtpmap` (RFC 3551 static types when
 * there is none), `fmtp` parameters and `control` URL, resolved against the Content-Base the way
 * servers and ffmpeg agree (RFC 2326 §C.1.1: `*` is the base, an absolute URL stays, a relative
 * one is appended to the base).
 */
import { ParseError } from '../../../errors.js';
import { attribute, sdpLines } from '../../shared/sdp-lines.js';

/** One media section, reduced to its first payload format. */
export interface SdpMedia {
  /** `video`, `audio`, `application`, … */
  readonly type: string;
  readonly protocol: string;
  readonly payloadType: number;
  /** Encoding name, upper-cased (`H264`, `MPEG4-GENERIC`, `OPUS`, …). */
  readonly encoding: string;
  readonly clockRate: number;
  /** Audio channels of the rtpmap (1 when not said). */
  readonly channels: number;
  /** fmtp parameters, names lower-cased. */
  readonly fmtp: ReadonlyMap<string, string>;
  /** Absolute control URL of the section (the SETUP request URI). */
  readonly control: string;
}

/** What DESCRIBE announced. */
export interface SessionDescription {
  /** The aggregate control URL (the PLAY request URI). */
  readonly control: string;
  readonly media: readonly SdpMedia[];
}

/** RFC 3551 §6 static payload types a source may use without an rtpmap. */
const STATIC_TYPES: Record<number, { encoding: string; clockRate: number; channels?: number }> = {
  0: { encoding: 'PCMU', clockRate: 8000 },
  8: { encoding: 'PCMA', clockRate: 8000 },
  14: { encoding: 'MPA', clockRate: 90000 },
  26: { encoding: 'JPEG', clockRate: 90000 },
  32: { encoding: 'MPV', clockRate: 90000 },
  33: { encoding: 'MP2T', clockRate: 90000 },
};

/** Most media sections looked at. */
const MAX_MEDIA = 16;

/** `control` resolved against `base` (RFC 2326 §C.1.1 as servers use it). */
export function resolveControl(base: string, control: string | undefined): string {
  if (control === undefined || control === '' || control === '*') {
    return base;
  }
  if (/^rtsps?:\/\//i.test(control)) {
    return control;
  }
  return `${base}${base.endsWith('/') || control.startsWith('/') ? '' : '/'}${control}`;
}

/** Parses a DESCRIBE body; `base` is the Content-Base (or the request URL). Throws ParseError. */
export function parseSessionDescription(body: string, base: string): SessionDescription {
  const lines = sdpLines(body);
  if (lines[0]?.type !== 'v') {
    throw new ParseError('the session description does not start with v=');
  }
  let sessionControl: string | undefined;
  const sections: { media: string[]; attributes: string[] }[] = [];
  for (const line of lines) {
    if (line.type === 'm') {
      if (sections.length >= MAX_MEDIA) {
        break;
      }
      sections.push({ media: line.value.split(' '), attributes: [] });
    } else if (line.type === 'a') {
      const current = sections.at(-1);
      if (current) {
        current.attributes.push(line.value);
      } else if (attribute(line.value).name === 'control') {
        sessionControl = attribute(line.value).rest.trim();
      }
    }
  }
  const control = resolveControl(base, sessionControl);
  const media: SdpMedia[] = [];
  for (const section of sections) {
    const [type = '', , protocol = '', format] = section.media;
    const payloadType = Number(format);
    if (!Number.isInteger(payloadType) || payloadType < 0 || payloadType > 127) {
      continue;
    }
    let rtpmap: string | undefined;
    let fmtpText: string | undefined;
    let mediaControl: string | undefined;
    for (const value of section.attributes) {
      const { name, rest } = attribute(value);
      if (name === 'rtpmap' && rest.startsWith(`${payloadType} `)) {
        rtpmap = rest.slice(String(payloadType).length + 1).trim();
      } else if (name === 'fmtp' && rest.startsWith(`${payloadType} `)) {
        fmtpText = rest.slice(String(payloadType).length + 1);
      } else if (name === 'control') {
        mediaControl = rest.trim();
      }
    }
    const known = STATIC_TYPES[payloadType];
    const [encoding = known?.encoding ?? `PT${payloadType}`, clock, channels] = rtpmap?.split('/') ?? [];
    media.push({
      type,
      protocol,
      payloadType,
      encoding: encoding.toUpperCase(),
      clockRate: Number(clock ?? known?.clockRate ?? 0) || 0,
      channels: Number(channels ?? known?.channels ?? 1) || 1,
      fmtp: parseFmtp(fmtpText ?? ''),
      control: resolveControl(base, mediaControl),
    });
  }
  return { control, media };
}

/** `a=fmtp` parameters `name=value; …` (names lower-cased; a value may hold `=`, as base64 does). */
export function parseFmtp(text: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) {
      params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
    }
  }
  return params;
}
