/** Stream status as a badge (text, not colour alone), kept current by liveStreamEvents. */
import { useState } from 'react';
import { useSubscription } from '../api/live';
import { graphql } from '../generated';
import type { StreamStatus } from '../generated/graphql';

const StatusEventsDocument = graphql(`
  subscription StreamStatusEvents($streamId: ID!) {
    liveStreamEvents(streamId: $streamId) { streamId state status timestamp }
  }
`);

/** A status badge. */
export function StatusBadge({ status }: { status: StreamStatus }) {
  return (
    <span className={`badge badge-${status.toLowerCase()}`} data-testid="stream-status">
      {status === 'LIVE' ? '● ' : ''}
      {status}
    </span>
  );
}

/** The stream's status from `initial`, then from each lifecycle event. */
export function useLiveStatus(streamId: string, initial: StreamStatus): StreamStatus {
  const [status, setStatus] = useState<{ base: StreamStatus; live?: StreamStatus }>({ base: initial });
  if (status.base !== initial) {
    setStatus({ base: initial });
  }
  useSubscription(StatusEventsDocument, { streamId }, (data) =>
    setStatus((previous) => ({ ...previous, live: data.liveStreamEvents.status })),
  );
  return status.live ?? initial;
}

/** A badge that follows the stream live. */
export function LiveStatus({ streamId, initial }: { streamId: string; initial: StreamStatus }) {
  return <StatusBadge status={useLiveStatus(streamId, initial)} />;
}
