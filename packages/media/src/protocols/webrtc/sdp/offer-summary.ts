/**
 * Checks a WHIP/WHEP SDP offer (RFC 8866, JSEP RFC 8829 §5.8) before werift sees it and
 * summarises what it asks for: each media section's kind, direction, MID and codecs. A body that
 * is not an offer werift could negotiate (no media, no ICE credentials, no DTLS fingerprint)
 * is refused here with a reason the client can read.
 */
import { ParseError } from '../../../errors.js';
import { attribute, type SdpLine, sdpLines } from '../../shared/sdp-lines.js';

/** Most media sections accepted in one offer. */
export const MAX_MEDIA_SECTIONS = 16;

/** Direction of a media section as the offerer sees it. */
export type SdpDirection = 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';

/** One media section of an offer. */
export interface OfferMedia {
  readonly kind: string;
  readonly direction: SdpDirection;
  readonly mid: string | undefined;
  /** Codec names from a=rtpmap, lower case (`h264`, `opus`, `vp8`, …). */
  readonly codecs: readonly string[];
}

/** What an offer asks for. */
export interface OfferSummary {
  readonly media: readonly OfferMedia[];
}

const DIRECTIONS = new Set(['sendrecv', 'sendonly', 'recvonly', 'inactive']);

/** Parses and checks an offer; throws ParseError with the reason. */
export function summarizeOffer(body: string): OfferSummary {
  const lines = sdpLines(body);
  if (lines[0]?.type !== 'v' || lines[0].value !== '0') {
    throw new ParseError('an SDP offer starts with v=0', 1);
  }
  const sessionLevel: SdpLine[] = [];
  const sections: SdpLine[][] = [];
  for (const line of lines) {
    if (line.type === 'm') {
      if (sections.length >= MAX_MEDIA_SECTIONS) {
        throw new ParseError(`more than ${MAX_MEDIA_SECTIONS} media sections`, line.number);
      }
      sections.push([line]);
    } else {
      (sections.at(-1) ?? sessionLevel).push(line);
    }
  }
  if (sections.length === 0) {
    throw new ParseError('the offer has no media section (m= line)');
  }
  const sessionAttrs = attributes(sessionLevel);
  const media = sections.map((section) => {
    const [mLine, ...rest] = section as [SdpLine, ...SdpLine[]];
    const fields = mLine.value.split(' ');
    if (fields.length < 4 || !/^\d+$/.test(fields[1] ?? '') || !fields[2]) {
      throw new ParseError(`m= line ${mLine.number} needs <media> <port> <proto> <fmt>…`, mLine.number);
    }
    const attrs = attributes(rest);
    const has = (name: string) => attrs.has(name) || sessionAttrs.has(name);
    const kind = fields[0] as string;
    if (kind === 'audio' || kind === 'video') {
      for (const required of ['ice-ufrag', 'ice-pwd', 'fingerprint']) {
        if (!has(required)) {
          throw new ParseError(`media section at line ${mLine.number} has no a=${required}`, mLine.number);
        }
      }
    }
    const direction = [...DIRECTIONS].find((d) => attrs.has(d)) ?? [...DIRECTIONS].find((d) => sessionAttrs.has(d));
    const codecs = (attrs.get('rtpmap') ?? []).map((rest) => {
      const name = rest.split(' ')[1]?.split('/')[0];
      if (!name) {
        throw new ParseError(`a=rtpmap:${rest} has no encoding name`, mLine.number);
      }
      return name.toLowerCase();
    });
    return {
      kind,
      direction: (direction ?? 'sendrecv') as SdpDirection,
      mid: attrs.get('mid')?.[0],
      codecs,
    };
  });
  return { media };
}

function attributes(lines: readonly SdpLine[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of lines) {
    if (line.type !== 'a') {
      continue;
    }
    const { name, rest } = attribute(line.value);
    const list = out.get(name);
    if (list) {
      list.push(rest);
    } else {
      out.set(name, [rest]);
    }
  }
  return out;
}
