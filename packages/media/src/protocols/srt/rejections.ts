/**
 * SRT rejection codes in words (draft-sharabayko-srt-01 §4.3 Table 7; 2000+ are libsrt's
 * access-control codes of Appendix B sent as 1000 + code), for what a refused call reports.
 */
import { RejectReason } from './handshake.js';

const NAMES: Record<number, string> = {
  [RejectReason.unknown]: 'unknown reason',
  [RejectReason.system]: 'system error on the listener',
  [RejectReason.peer]: 'peer error',
  [RejectReason.resource]: 'listener out of resources',
  [RejectReason.rogue]: 'handshake refused as rogue',
  [RejectReason.backlog]: 'listener backlog full',
  [RejectReason.close]: 'listener closing',
  [RejectReason.version]: 'SRT version refused',
  [RejectReason.badSecret]: 'wrong passphrase',
  [RejectReason.unsecure]: 'passphrase required or unexpected',
  [RejectReason.messageApi]: 'live mode refused',
  [RejectReason.congestion]: 'congestion control refused',
  [RejectReason.filter]: 'packet filter refused',
  [RejectReason.group]: 'socket group refused',
  [RejectReason.crypto]: 'cipher refused',
  [RejectReason.badRequest]: 'bad request (Stream ID)',
  [RejectReason.unauthorized]: 'unauthorized',
  [RejectReason.forbidden]: 'forbidden (unknown stream)',
  [RejectReason.notFound]: 'stream not found',
  [RejectReason.badMode]: 'mode refused',
  [RejectReason.conflict]: 'conflict (the stream is busy)',
};

/** "code N (what it means)" for a handshake type carrying a rejection. */
export function rejectionText(handshakeType: number): string {
  const reason = handshakeType >= 2000 ? handshakeType - 1000 : handshakeType;
  const name = NAMES[reason] ?? (reason >= 1400 ? 'access control refusal' : 'rejected');
  return `code ${handshakeType} (${name})`;
}
