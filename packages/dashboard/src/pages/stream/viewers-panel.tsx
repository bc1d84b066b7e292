/** Viewers over time: liveViewerMetrics events while this page is open, drawn as a line. */
import { useState } from 'react';
import { useSubscription } from '../../api/live';
import { graphql } from '../../generated';
import { Chart, type ChartPoint } from '../../ui/chart';

const ViewerMetricsDocument = graphql(`
  subscription ViewerMetrics($streamId: ID!) {
    liveViewerMetrics(streamId: $streamId) { currentViewers egressBytesPerSecond timestamp }
  }
`);

const KEEP = 120;

/** The panel; `initial` is the viewer count the stream query returned. */
export function ViewersPanel({ streamId, initial }: { streamId: string; initial: number }) {
  const [points, setPoints] = useState<ChartPoint[]>(() => [
    { label: new Date().toLocaleTimeString(), value: initial },
  ]);
  useSubscription(ViewerMetricsDocument, { streamId }, (data) =>
    setPoints((previous) =>
      [
        ...previous,
        {
          label: new Date(data.liveViewerMetrics.timestamp).toLocaleTimeString(),
          value: data.liveViewerMetrics.currentViewers,
        },
      ].slice(-KEEP),
    ),
  );
  const current = points[points.length - 1]?.value ?? 0;
  return (
    <section aria-labelledby="viewers-heading" className="card">
      <h2 id="viewers-heading">Viewers</h2>
      <p>
        <strong data-testid="current-viewers">{current}</strong> watching now
      </p>
      <Chart title="Concurrent viewers since this page opened" points={points} />
    </section>
  );
}
