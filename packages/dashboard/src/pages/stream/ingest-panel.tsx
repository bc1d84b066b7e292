/** Ingest URLs (RTMP, SRT, WHIP) of the stream's primary key with copy buttons and an OBS hint. */
import { useQuery } from '../../api/use-query';
import { graphql } from '../../generated';
import { CopyField } from '../../ui/copy-button';
import { ErrorBox, Loading } from '../../ui/states';

const IngestDocument = graphql(`
  query Ingest($streamKey: String!) {
    resolveIngestEndpoint(streamKey: $streamKey) {
      primary { nodeId rtmpUrl rtmpsUrl srtUrl whipUrl }
    }
  }
`);

/** `rtmp://host:port/live` and the key, as OBS asks for them (Server + Stream Key). */
function obsParts(rtmpUrl: string, streamKey: string): { server: string; key: string } {
  const suffix = `/${streamKey}`;
  return rtmpUrl.endsWith(suffix)
    ? { server: rtmpUrl.slice(0, -suffix.length), key: streamKey }
    : { server: rtmpUrl, key: streamKey };
}

/** The panel. */
export function IngestPanel({ streamKey }: { streamKey: string }) {
  const ingest = useQuery(IngestDocument, { streamKey });
  const primary = ingest.data?.resolveIngestEndpoint?.primary;
  return (
    <section aria-labelledby="ingest-heading" className="card">
      <h2 id="ingest-heading">Ingest</h2>
      {ingest.error && <ErrorBox error={ingest.error} retry={ingest.reload} />}
      {!primary && ingest.loading && <Loading what="ingest URLs" />}
      {primary && (
        <>
          {primary.rtmpUrl && <CopyField label="RTMP URL" value={primary.rtmpUrl} secret />}
          {primary.rtmpsUrl && <CopyField label="RTMPS URL" value={primary.rtmpsUrl} secret />}
          {primary.srtUrl && <CopyField label="SRT URL" value={primary.srtUrl} secret />}
          {primary.whipUrl && <CopyField label="WHIP URL" value={primary.whipUrl} secret />}
          {primary.rtmpUrl && (
            <details className="hint">
              <summary>OBS settings</summary>
              <p>Settings → Stream: Service “Custom…”, then:</p>
              <CopyField label="OBS Server" value={obsParts(primary.rtmpUrl, streamKey).server} />
              <CopyField label="OBS Stream Key" value={streamKey} secret />
              <p className="muted">
                Settings → Output: keyframe interval 2 s, x264 “zerolatency” tune, no B-frames if you want WebRTC
                playback; 2500–6000 kbps for 720p–1080p.
              </p>
            </details>
          )}
        </>
      )}
    </section>
  );
}
