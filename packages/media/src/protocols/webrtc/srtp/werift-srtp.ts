/**
 * What Airwave reads and changes inside werift 0.25.2's SRTP and ICE objects (ADR 0031), in one
 * place: the session keys its SRTP contexts derived (RFC 5764 §4.2), turned into imported
 * KeyObjects so that werift's own per-packet ciphers stop importing raw key bytes for every
 * packet; the rollover counter of an SSRC (RFC 3711 §3.3.1), kept by werift's context so that
 * packets sent here and by werift agree; the SRTP profiles a DTLS handshake offers (ADR 0032);
 * and the UDP socket and address of the nominated ICE pair. Every access checks the shape it expects and answers undefined when werift changed.
 */

import type { KeyObject } from 'node:crypto';
import type { Socket } from 'node:dgram';
import type { RTCDtlsTransport } from 'werift';
import { asKey, type SrtpSessionKeys } from './srtp-protector.js';

interface CipherFields {
  srtpSessionKey?: Buffer | KeyObject;
  srtcpSessionKey?: Buffer | KeyObject;
  srtpSessionAuthTag?: Buffer | KeyObject;
  srtcpSessionAuthTag?: Buffer | KeyObject;
  srtpSessionSalt?: Buffer;
}

interface SsrcState {
  rolloverCounter: number;
}

interface ContextFields {
  profile: number;
  cipher?: CipherFields;
  getSrtpSsrcState?(ssrc: number): SsrcState;
  updateRolloverCount?(sequence: number, state: SsrcState): void;
}

interface SessionFields {
  localContext?: ContextFields;
  remoteContext?: ContextFields;
}

const KEY_FIELDS = ['srtpSessionKey', 'srtcpSessionKey', 'srtpSessionAuthTag', 'srtcpSessionAuthTag'] as const;

/**
 * Replaces the raw session keys of the transport's SRTP and SRTCP ciphers (both directions)
 * with imported KeyObjects (Node's createCipheriv and createHmac take either). Idempotent;
 * false when the transport has no SRTP session yet or werift's shape is not the expected one.
 */
export function importSrtpKeys(transport: RTCDtlsTransport): boolean {
  const sessions = [transport.srtp, transport.srtcp] as unknown as (SessionFields | undefined)[];
  let imported = false;
  for (const session of sessions) {
    for (const context of [session?.localContext, session?.remoteContext]) {
      const cipher = context?.cipher;
      if (!cipher) {
        continue;
      }
      for (const field of KEY_FIELDS) {
        const value = cipher[field];
        if (value !== undefined) {
          cipher[field] = asKey(value);
          imported = true;
        }
      }
    }
  }
  return imported;
}

/**
 * Sets the SRTP protection profiles the transport's DTLS handshake offers (as client) or picks
 * from (as server), most preferred first; call before DTLS starts. False when werift's shape is
 * not the expected one.
 */
export function preferSrtpProfiles(transport: RTCDtlsTransport, profiles: readonly number[]): boolean {
  const fields = transport as unknown as { srtpProfiles?: unknown; state?: string };
  if (!Array.isArray(fields.srtpProfiles) || fields.state !== 'new') {
    return false;
  }
  fields.srtpProfiles = [...profiles];
  return true;
}

/** The sending direction's SRTP session keys, or undefined before DTLS completed. */
export function sendingKeys(transport: RTCDtlsTransport): SrtpSessionKeys | undefined {
  const context = localSrtp(transport);
  const cipher = context?.cipher;
  if (!context || !cipher?.srtpSessionKey || !cipher.srtpSessionSalt) {
    return undefined;
  }
  return {
    profile: context.profile,
    key: cipher.srtpSessionKey,
    salt: cipher.srtpSessionSalt,
    ...(cipher.srtpSessionAuthTag ? { authKey: cipher.srtpSessionAuthTag } : {}),
  };
}

/** Advances werift's rollover state of `ssrc` to `sequence` and returns the ROC to protect it with. */
export function rolloverCounter(transport: RTCDtlsTransport, ssrc: number, sequence: number): number | undefined {
  const context = localSrtp(transport);
  if (!context?.getSrtpSsrcState || !context.updateRolloverCount) {
    return undefined;
  }
  const state = context.getSrtpSsrcState(ssrc);
  context.updateRolloverCount(sequence, state);
  return state.rolloverCounter;
}

/** Where datagrams of the nominated ICE pair go, when it is UDP. */
export interface UdpRoute {
  readonly socket: Socket;
  readonly port: number;
  readonly address: string;
}

interface PairFields {
  remoteAddr?: readonly [string, number];
  protocol?: { transport?: { type?: string; socket?: Socket; closed?: boolean } };
}

/** The nominated pair's UDP socket and remote address; undefined over TCP or before nomination. */
export function udpRoute(transport: RTCDtlsTransport): UdpRoute | undefined {
  const connection = transport.iceTransport.connection as unknown as { nominated?: PairFields; state?: string };
  if (connection.state === 'closed' || connection.state === 'failed') {
    return undefined;
  }
  const pair = connection.nominated;
  const udp = pair?.protocol?.transport;
  const remote = pair?.remoteAddr;
  if (udp?.type !== 'udp' || !udp.socket || udp.closed || !remote) {
    return undefined;
  }
  return { socket: udp.socket, address: remote[0], port: remote[1] };
}

function localSrtp(transport: RTCDtlsTransport): ContextFields | undefined {
  return (transport.srtp as unknown as SessionFields | undefined)?.localContext;
}
