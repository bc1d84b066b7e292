/** Tracks and health of the running stream: codecs, size, fps, bitrate, key-frame interval, uptime, reconnects, pull state. */
import type { StreamQuery } from '../../generated/graphql';
import { ScrollRegion } from '../../ui/scroll-region';
import { Empty } from '../../ui/states';
import { formatTime } from '../streams';

type StreamView = NonNullable<StreamQuery['stream']>;

/** The panel. */
export function HealthPanel({ stream }: { stream: StreamView }) {
  const { metrics, tracks } = stream;
  return (
    <section aria-labelledby="health-heading" className="card">
      <h2 id="health-heading">Tracks and health</h2>
      <dl className="facts">
        <dt>Live since</dt>
        <dd>{metrics.startedAt ? formatTime(metrics.startedAt) : '—'}</dd>
        <dt>Node</dt>
        <dd>{metrics.nodeId ?? '—'}</dd>
        <dt>Reconnects</dt>
        <dd data-testid="reconnects">
          {metrics.reconnects ?? '—'}
          {metrics.reconnects ? ' (the encoder dropped and came back in this session)' : ''}
        </dd>
        {metrics.pull && (
          <>
            <dt>Pull</dt>
            <dd>
              {metrics.pull.state} · attempt {metrics.pull.attempt} · {metrics.pull.failures} failures (reconnects)
              {metrics.pull.lastError ? ` · last error: ${metrics.pull.lastError}` : ''}
            </dd>
          </>
        )}
      </dl>
      {tracks.length === 0 ? (
        <Empty title="No tracks yet">
          <p className="muted">Tracks appear when an encoder publishes.</p>
        </Empty>
      ) : (
        <ScrollRegion label="Tracks table">
          <table>
            <caption className="visually-hidden">Tracks</caption>
            <thead>
              <tr>
                <th scope="col">Track</th>
                <th scope="col">Codec</th>
                <th scope="col">Format</th>
                <th scope="col">Bitrate</th>
                <th scope="col">Keyframe interval</th>
              </tr>
            </thead>
            <tbody>
              {tracks.map((track) => (
                <tr key={track.trackId}>
                  <td>
                    {track.trackType} #{track.trackId}
                  </td>
                  <td>{track.codecString || track.codec}</td>
                  <td>
                    {track.width ? `${track.width}×${track.height}` : ''}
                    {track.fps ? ` @ ${track.fps.toFixed(2)} fps` : ''}
                    {track.sampleRate ? `${track.sampleRate} Hz · ${track.channels ?? '?'} ch` : ''}
                  </td>
                  <td>{track.bitrateKbps ? `${track.bitrateKbps} kbps` : '—'}</td>
                  <td data-testid={track.trackType === 'video' ? 'keyframe-interval' : undefined}>
                    {track.keyframeIntervalMs ? `${(track.keyframeIntervalMs / 1000).toFixed(2)} s` : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
