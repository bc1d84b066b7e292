/**
 * The live preview, loaded lazily (its chunk carries hls.js): LL-HLS through hls.js in low-latency
 * mode, or WHEP (RFC 9725) through the browser's RTCPeerConnection. It shows how far behind live
 * it plays. Requests go to the same origin, so the owner's session cookie grants preview access
 * to protected streams (docs/adr/0055-dashboard-auth-and-preview.md); no token enters a URL.
 */
import Hls from 'hls.js';
import { useEffect, useState } from 'react';
import { ScrubBar } from './scrub-bar';

/** Props of the player. */
export interface LivePlayerProps {
  readonly playbackId: string;
  readonly protocol: 'llhls' | 'whep';
  /** false for recordings and clips: no latency readout, starts at the beginning. */
  readonly live?: boolean;
  /** Called with the playback position (seconds) as it changes. */
  readonly onTime?: (seconds: number) => void;
}

/** Seconds behind the live edge as text. */
function behind(seconds: number | undefined): string {
  return seconds === undefined || !Number.isFinite(seconds) ? '—' : `${seconds.toFixed(1)} s`;
}

/** Plays the LL-HLS playlist with hls.js; reports latency and fatal errors. */
function playHls(
  video: HTMLVideoElement,
  playbackId: string,
  report: (latency?: number, error?: string) => void,
  live: boolean,
) {
  const src = `/play/${encodeURIComponent(playbackId)}/cmaf/index.m3u8`;
  if (!Hls.isSupported()) {
    video.src = src;
    return () => video.removeAttribute('src');
  }
  const hls = new Hls(live ? { lowLatencyMode: true, liveSyncDurationCount: 2 } : { startPosition: 0 });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) {
      report(undefined, `${data.type}: ${data.details}`);
      if (data.type === Hls.ErrorTypes.NETWORK_ERROR) {
        window.setTimeout(() => hls.startLoad(), 2000);
      }
    }
  });
  hls.loadSource(src);
  hls.attachMedia(video);
  const timer = window.setInterval(() => report(hls.latency), 500);
  return () => {
    window.clearInterval(timer);
    hls.destroy();
  };
}

/** Plays WHEP: one recvonly offer, POSTed once ICE gathering finishes (or after 1 s). */
function playWhep(video: HTMLVideoElement, playbackId: string, report: (latency?: number, error?: string) => void) {
  const pc = new RTCPeerConnection();
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  const stream = new MediaStream();
  pc.ontrack = (event) => {
    stream.addTrack(event.track);
    video.srcObject = stream;
  };
  let stopped = false;
  let session: string | null = null;
  (async () => {
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') {
        resolve();
        return;
      }
      pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
      window.setTimeout(resolve, 1000);
    });
    const response = await fetch(`/play/${encodeURIComponent(playbackId)}/webrtc`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/sdp' },
      body: pc.localDescription?.sdp ?? '',
    });
    if (!response.ok) {
      const text = await response.text();
      throw new Error(`WHEP answered ${response.status}: ${text.slice(0, 200)}`);
    }
    session = response.headers.get('location');
    if (!stopped) {
      await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
    }
  })().catch((error: Error) => report(undefined, error.message));
  const timer = window.setInterval(async () => {
    const stats = await pc.getStats();
    stats.forEach((entry) => {
      if (entry.type === 'inbound-rtp' && entry.kind === 'video' && entry.jitterBufferEmittedCount > 0) {
        report(entry.jitterBufferDelay / entry.jitterBufferEmittedCount);
      }
    });
  }, 1000);
  return () => {
    stopped = true;
    window.clearInterval(timer);
    pc.close();
    if (session) {
      void fetch(session, { method: 'DELETE', credentials: 'same-origin' }).catch(() => {});
    }
  };
}

/** The preview player with its latency readout. */
export default function LivePlayer({ playbackId, protocol, live = true, onTime }: LivePlayerProps) {
  const [element, setElement] = useState<HTMLVideoElement | null>(null);
  const [latency, setLatency] = useState<number>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!element) {
      return;
    }
    setError(undefined);
    setLatency(undefined);
    const report = (value?: number, failure?: string) => {
      if (failure) {
        setError(failure);
      } else {
        setLatency(value);
      }
    };
    const stop =
      protocol === 'whep' ? playWhep(element, playbackId, report) : playHls(element, playbackId, report, live);
    void element.play().catch(() => {});
    return () => {
      stop();
      element.srcObject = null;
    };
  }, [element, playbackId, protocol, live]);
  return (
    <div className="player">
      <video
        ref={setElement}
        muted
        autoPlay
        playsInline
        controls
        data-testid={live ? 'preview-video' : 'recording-video'}
        aria-label={live ? 'Live preview' : 'Recording player'}
        onTimeUpdate={(event) => onTime?.(event.currentTarget.currentTime)}
      >
        <track kind="captions" />
      </video>
      {!live && <ScrubBar video={element} vttUrl={`/play/${encodeURIComponent(playbackId)}/thumbnails/sprite.vtt`} />}
      {live && (
        <p className="muted" aria-live="off">
          {protocol === 'whep' ? 'WebRTC (WHEP)' : 'LL-HLS'} · behind live:{' '}
          <span data-testid="latency">{behind(latency)}</span>
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          Preview: {error}
        </p>
      )}
    </div>
  );
}
