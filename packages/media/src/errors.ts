/**
 * Typed errors of the media plane. A bad packet is counted and logged, never thrown out of a
 * session loop; a session that cannot continue closes with one of these as its reason.
 */

/** Input bytes do not follow the format; `offset` points at the first bad byte when known. */
export class ParseError extends Error {
  override readonly name = 'ParseError';
  constructor(
    message: string,
    readonly offset?: number,
  ) {
    super(message);
  }
}

/** A peer broke the protocol's rules (wrong state, bad command, limit exceeded). */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}

/** Valid input that this implementation does not handle; the message names what is supported. */
export class UnsupportedError extends Error {
  override readonly name = 'UnsupportedError';
}
