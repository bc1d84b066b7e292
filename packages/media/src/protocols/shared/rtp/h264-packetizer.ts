/**
 * H.264 RTP packetization (RFC 6184, packetization-mode 1): each NAL unit that fits goes in a
 * single NAL unit packet (§5.6), a larger one is split into FU-A fragments (§5.8). The marker bit
 * is set on the last packet of the access unit (§5.1).
 */

/** Largest RTP payload sent (stays under a 1500-byte path MTU with SRTP and IP/UDP headers). */
export const MAX_RTP_PAYLOAD = 1200;
const FU_A = 28;

/** One RTP payload and whether it carries the marker bit. */
export interface RtpPayload {
  readonly payload: Uint8Array;
  readonly marker: boolean;
}

/** Splits the NAL units of one access unit into RTP payloads. */
export function packetizeH264(nals: readonly Uint8Array[], maxPayload = MAX_RTP_PAYLOAD): RtpPayload[] {
  const out: RtpPayload[] = [];
  const usable = nals.filter((nal) => nal.length > 0);
  usable.forEach((nal, index) => {
    const last = index === usable.length - 1;
    if (nal.length <= maxPayload) {
      out.push({ payload: nal, marker: last });
      return;
    }
    const header = nal[0] as number;
    const indicator = (header & 0xe0) | FU_A;
    const type = header & 0x1f;
    const chunk = maxPayload - 2;
    for (let offset = 1; offset < nal.length; offset += chunk) {
      const end = Math.min(offset + chunk, nal.length);
      const first = offset === 1;
      const final = end === nal.length;
      const payload = new Uint8Array(2 + end - offset);
      payload[0] = indicator;
      payload[1] = (first ? 0x80 : 0) | (final ? 0x40 : 0) | type;
      payload.set(nal.subarray(offset, end), 2);
      out.push({ payload, marker: last && final });
    }
  });
  return out;
}
