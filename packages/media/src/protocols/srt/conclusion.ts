/**
 * What the listener reads from a caller's CONCLUSION handshake (draft-sharabayko-srt-01 §4.3.1.2)
 * before any lookup: the checks that refuse it with a rejection reason (§4.3 Table 7) and the
 * stream key, key material and latency of one that passes.
 */
import {
  ExtensionFlag,
  ExtensionType,
  type Handshake,
  parseSrtHandshakeInfo,
  parseStreamIdExtension,
  RejectReason,
  SrtFlag,
} from './handshake.js';
import { type KeyMaterial, KmCipher, parseKeyMaterial } from './key-material.js';
import { parseStreamId } from './stream-id.js';

/** Why a conclusion is refused. */
export class Refusal {
  constructor(
    /** Rejection reason (Table 7, or libsrt's 14xx access-control codes). */
    readonly reason: number,
    readonly message: string,
  ) {}
}

/** A conclusion that passed the checks that need no lookup. */
export interface Conclusion {
  readonly hs: Handshake;
  /** The stream key from the Stream ID. */
  readonly key: string;
  readonly km: { readonly raw: Uint8Array; readonly parsed: KeyMaterial } | undefined;
  readonly latencyMs: number;
  /** Local µs minus the caller's µs when the conclusion arrived. */
  readonly timeBaseUs: number;
}

/**
 * Checks a conclusion request (version 5, HSREQ in live mode, Stream ID, no filter/group, live
 * congestion control, AES-CTR key material) and reads what the listener needs from it. The
 * latency is the larger of `offeredLatencyMs` and the caller's.
 */
export function readConclusion(hs: Handshake, offeredLatencyMs: number, timeBaseUs: number): Conclusion | Refusal {
  if (hs.version !== 5) {
    return new Refusal(RejectReason.version, `handshake version ${hs.version} (5 is required)`);
  }
  const extension = (type: number) => hs.extensions.find((item) => item.type === type)?.content;
  const hsreqBytes = extension(ExtensionType.hsreq);
  if (!hsreqBytes || (hs.extensionField & ExtensionFlag.hsreq) === 0) {
    return new Refusal(RejectReason.rogue, 'conclusion without HSREQ');
  }
  let latencyMs: number;
  try {
    const hsreq = parseSrtHandshakeInfo(hsreqBytes);
    if ((hsreq.flags & SrtFlag.tsbpdSend) === 0 || hsreq.flags & SrtFlag.stream) {
      return new Refusal(RejectReason.messageApi, 'only live mode (TSBPD, message API) is served');
    }
    latencyMs = Math.max(offeredLatencyMs, hsreq.senderDelayMs);
  } catch (error) {
    return new Refusal(RejectReason.rogue, (error as Error).message);
  }
  if (extension(ExtensionType.filter)) {
    return new Refusal(RejectReason.filter, 'packet filters are not supported');
  }
  if (extension(ExtensionType.group)) {
    return new Refusal(RejectReason.group, 'socket groups are not supported');
  }
  const congestion = extension(ExtensionType.congestion);
  let key: string;
  try {
    if (congestion && parseStreamIdExtension(congestion) !== 'live') {
      return new Refusal(RejectReason.congestion, 'only the live congestion controller is served');
    }
    const sid = extension(ExtensionType.streamId);
    if (!sid) {
      return new Refusal(RejectReason.badRequest, 'no Stream ID (publish with ?streamid=<streamKey>)');
    }
    const request = parseStreamId(parseStreamIdExtension(sid));
    if (!request.ok) {
      return new Refusal(RejectReason.badRequest, `Stream ID: ${request.reason}`);
    }
    if (request.mode !== 'publish') {
      return new Refusal(RejectReason.badMode, `mode ${request.mode} (only publish is served)`);
    }
    key = request.key;
  } catch (error) {
    return new Refusal(RejectReason.badRequest, (error as Error).message);
  }
  const kmBytes = extension(ExtensionType.kmreq);
  let km: Conclusion['km'];
  if (kmBytes) {
    try {
      km = { raw: kmBytes, parsed: parseKeyMaterial(kmBytes) };
    } catch (error) {
      return new Refusal(RejectReason.rogue, (error as Error).message);
    }
    if (km.parsed.cipher !== KmCipher.aesCtr) {
      return new Refusal(RejectReason.crypto, `cipher ${km.parsed.cipher} (AES-CTR only)`);
    }
  }
  return { hs, key, km, latencyMs, timeBaseUs };
}
