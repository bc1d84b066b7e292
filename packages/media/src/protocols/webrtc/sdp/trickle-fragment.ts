/**
 * Trickle ICE SDP fragments (RFC 8840 §9, `application/trickle-ice-sdpfrag`) as WHIP/WHEP
 * clients PATCH them (RFC 9725 §4.3): ICE credentials, media sections by MID, candidates and
 * end-of-candidates.
 */
import { ParseError } from '../../../errors.js';
import { attribute, sdpLines } from '../../shared/sdp-lines.js';

/** Most candidates accepted in one fragment. */
export const MAX_FRAGMENT_CANDIDATES = 64;

/** One candidate and the media section it belongs to. */
export interface TrickledCandidate {
  readonly mid: string | undefined;
  /** `candidate:…` as RTCIceCandidate.candidate carries it. */
  readonly candidate: string;
}

/** A parsed fragment. */
export interface TrickleFragment {
  readonly iceUfrag: string | undefined;
  readonly icePwd: string | undefined;
  readonly candidates: readonly TrickledCandidate[];
  readonly endOfCandidates: boolean;
}

/** Parses a fragment; throws ParseError when it is malformed. */
export function parseTrickleFragment(body: string): TrickleFragment {
  let iceUfrag: string | undefined;
  let icePwd: string | undefined;
  let mid: string | undefined;
  let endOfCandidates = false;
  const candidates: TrickledCandidate[] = [];
  for (const line of sdpLines(body)) {
    if (line.type === 'm') {
      mid = undefined;
      continue;
    }
    if (line.type !== 'a') {
      continue;
    }
    const { name, rest } = attribute(line.value);
    if (name === 'ice-ufrag') {
      iceUfrag = rest;
    } else if (name === 'ice-pwd') {
      icePwd = rest;
    } else if (name === 'mid') {
      mid = rest;
    } else if (name === 'end-of-candidates') {
      endOfCandidates = true;
    } else if (name === 'candidate') {
      // foundation component transport priority address port typ type …
      const fields = rest.split(' ');
      if (
        fields.length < 8 ||
        fields[6] !== 'typ' ||
        !/^\d+$/.test(fields[5] ?? '') ||
        !/^\d+$/.test(fields[3] ?? '') ||
        !/^\d+$/.test(fields[1] ?? '')
      ) {
        throw new ParseError(`a=candidate at line ${line.number} is malformed`, line.number);
      }
      if (candidates.length >= MAX_FRAGMENT_CANDIDATES) {
        throw new ParseError(`more than ${MAX_FRAGMENT_CANDIDATES} candidates in one fragment`, line.number);
      }
      candidates.push({ mid, candidate: `candidate:${rest}` });
    }
  }
  return { iceUfrag, icePwd, candidates, endOfCandidates };
}
