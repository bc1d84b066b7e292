/**
 * The line grammar shared by SDP offers (RFC 8866 §5) and trickle-ICE fragments (RFC 8840 §9):
 * `<type>=<value>` lines of printable UTF-8, CRLF or LF terminated, with bounded count and length.
 */
import { ParseError } from '../../errors.js';

/** Largest SDP body accepted (bytes). */
export const MAX_SDP_BYTES = 64 * 1024;
/** Most lines in one body. */
export const MAX_SDP_LINES = 4096;

/** One `<type>=<value>` line. */
export interface SdpLine {
  readonly type: string;
  readonly value: string;
  /** 1-based line number, for error messages. */
  readonly number: number;
}

/** Splits an SDP body into lines; throws ParseError on anything that is not SDP. */
export function sdpLines(body: string): SdpLine[] {
  if (body.length > MAX_SDP_BYTES) {
    throw new ParseError(`SDP of ${body.length} bytes is larger than ${MAX_SDP_BYTES}`);
  }
  const raw = body.split(/\r?\n/);
  if (raw.length > MAX_SDP_LINES + 1) {
    throw new ParseError(`SDP has more than ${MAX_SDP_LINES} lines`);
  }
  const lines: SdpLine[] = [];
  raw.forEach((text, index) => {
    if (text.length === 0) {
      return;
    }
    const number = index + 1;
    if (text.length < 2 || text[1] !== '=' || !/^[a-z]$/.test(text[0] as string) || hasControlCharacter(text)) {
      throw new ParseError(`SDP line ${number} is not a <letter>=<value> line`, number);
    }
    lines.push({ type: text[0] as string, value: text.slice(2), number });
  });
  return lines;
}

/** Splits an attribute value `name:rest` (or a flag `name`). */
export function attribute(value: string): { name: string; rest: string } {
  const colon = value.indexOf(':');
  return colon < 0 ? { name: value, rest: '' } : { name: value.slice(0, colon), rest: value.slice(colon + 1) };
}

/** True when the line holds a control character other than TAB. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) {
      return true;
    }
  }
  return false;
}
