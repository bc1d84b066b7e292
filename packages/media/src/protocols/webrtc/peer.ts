/**
 * One werift peer connection as a WHIP or WHEP session uses it (RFC 9725 §4.2, WHEP draft §4.2):
 * apply the client's offer, answer with every candidate gathered (no server-side trickle), apply
 * trickled candidates (§4.3), watch the connection state, and close after a deadline when ICE and
 * DTLS never complete. Once connected, werift's SRTP ciphers get imported keys (ADR 0031).
 */
import { RTCPeerConnection, type RTCRtpTransceiver } from 'werift';
import { ProtocolError } from '../../errors.js';
import { type PeerVideoCodec, peerConfig, type WebRtcNetworkOptions } from './peer-options.js';
import type { TrickleFragment } from './sdp/trickle-fragment.js';
import { importSrtpKeys } from './srtp/werift-srtp.js';

/** Why a connection ended (the session's close reason). */
export type PeerEnd = (reason: string) => void;

/** Options of one peer. */
export interface PeerOptions {
  readonly network: WebRtcNetworkOptions;
  /** ICE + DTLS must complete within this long after the answer (default 15 s). */
  readonly connectTimeoutMs?: number;
  /** A connection that stays `disconnected` this long is over (default 5 s). */
  readonly disconnectGraceMs?: number;
  /** The video codec to negotiate (default H.264). */
  readonly videoCodec?: PeerVideoCodec;
}

/** A negotiated peer connection. */
export class Peer {
  readonly pc: RTCPeerConnection;
  private closed = false;
  private connectTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private readonly connectedWaiters: (() => void)[] = [];

  constructor(
    private readonly options: PeerOptions,
    private readonly onEnd: PeerEnd,
  ) {
    this.pc = new RTCPeerConnection(peerConfig(options.network, options.videoCodec));
    this.pc.connectionStateChange.subscribe((state) => this.onState(state));
  }

  /** True once ICE and DTLS completed. */
  get connected(): boolean {
    return this.pc.connectionState === 'connected';
  }

  /**
   * Applies the offer, shapes the transceivers with `prepare`, and returns the answer SDP with
   * all host candidates. Throws ProtocolError when werift refuses the offer.
   */
  async answer(offer: string, prepare: (transceivers: RTCRtpTransceiver[]) => void): Promise<string> {
    try {
      await this.pc.setRemoteDescription({ type: 'offer', sdp: offer });
      prepare(this.pc.getTransceivers());
      const answer = await this.pc.createAnswer();
      await this.pc.setLocalDescription(answer);
    } catch (error) {
      throw new ProtocolError(`the SDP offer could not be applied: ${(error as Error).message}`);
    }
    const timeout = this.options.connectTimeoutMs ?? 15_000;
    this.connectTimer = setTimeout(
      () => this.end(`ICE/DTLS did not complete within ${Math.round(timeout / 1000)} s`),
      timeout,
    );
    this.connectTimer.unref();
    const sdp = this.pc.localDescription?.sdp;
    if (!sdp) {
      throw new ProtocolError('no local description was produced');
    }
    return sdp;
  }

  /** Applies candidates a client trickled with PATCH; an ICE restart is refused. */
  async addCandidates(fragment: TrickleFragment): Promise<void> {
    const remote = this.pc.remoteDescription?.sdp ?? '';
    if (fragment.iceUfrag !== undefined && !remote.includes(`a=ice-ufrag:${fragment.iceUfrag}`)) {
      throw new ProtocolError('ICE restart (new ice-ufrag) is not supported; start a new session');
    }
    for (const candidate of fragment.candidates) {
      await this.pc.addIceCandidate({
        candidate: candidate.candidate,
        ...(candidate.mid === undefined ? { sdpMLineIndex: 0 } : { sdpMid: candidate.mid }),
      });
    }
  }

  /** Resolves once connected (immediately when already). */
  whenConnected(): Promise<void> {
    if (this.connected) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.connectedWaiters.push(resolve));
  }

  /** Closes the connection (idempotent); does not call onEnd. */
  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    clearTimeout(this.connectTimer);
    clearTimeout(this.graceTimer);
    this.pc.close().catch(() => undefined);
  }

  private onState(state: string): void {
    if (this.closed) {
      return;
    }
    if (state === 'connected') {
      for (const transport of this.pc.dtlsTransports) {
        importSrtpKeys(transport);
      }
      clearTimeout(this.connectTimer);
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      for (const resolve of this.connectedWaiters.splice(0)) {
        resolve();
      }
    } else if (state === 'failed') {
      this.end('ICE or DTLS failed');
    } else if (state === 'closed') {
      this.end('the peer closed the connection');
    } else if (state === 'disconnected' && !this.graceTimer) {
      const grace = this.options.disconnectGraceMs ?? 5_000;
      this.graceTimer = setTimeout(() => this.end('the peer stayed disconnected'), grace);
      this.graceTimer.unref();
    }
  }

  private end(reason: string): void {
    if (this.closed) {
      return;
    }
    this.close();
    this.onEnd(reason);
  }
}
