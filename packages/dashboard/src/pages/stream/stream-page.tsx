/** One stream: status, live preview, ingest, keys, health, viewers, access, push targets, analytics. */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ApiError, request } from '../../api/client';
import { useLiveConnected } from '../../api/live';
import { useQuery } from '../../api/use-query';
import { graphql } from '../../generated';
import type { StreamQuery } from '../../generated/graphql';
import { Link, navigate } from '../../router';
import { Empty, ErrorBox, Loading } from '../../ui/states';
import { StatusBadge, useLiveStatus } from '../../ui/status';
import { formatTime } from '../streams';
import { AnalyticsPanel } from './analytics-panel';
import { HealthPanel } from './health-panel';
import { IngestPanel } from './ingest-panel';
import { KeysPanel } from './keys-panel';
import { PolicyPanel } from './policy-panel';
import { PushTargetsPanel } from './push-targets-panel';
import { ViewersPanel } from './viewers-panel';

const LivePlayer = lazy(() => import('../../player/live-player'));

const StreamDocument = graphql(`
  query Stream($id: ID!) {
    stream(id: $id) {
      id streamId name playbackId streamKey record ingestMode createdAt
      pullSource { sourceUriRedacted enabled onDemand }
      metrics {
        status isLive currentViewers startedAt nodeId reconnects
        pull { state attempt failures lastError }
      }
      tracks { trackId trackType codec codecString width height fps bitrateKbps channels sampleRate keyframeIntervalMs }
      playbackPolicy { type jwt { allowedKids } webhook { url timeoutMs secretMasked } }
    }
  }
`);

const DeleteStreamDocument = graphql(`
  mutation DeleteStream($id: ID!) {
    deleteStream(id: $id) {
      __typename
      ... on DeleteSuccess { deletedId }
      ...Failure
    }
  }
`);

/** The page for the stream with global ID `id`. */
export function StreamPage({ id }: { id: string }) {
  const query = useQuery(StreamDocument, { id });
  useLiveConnected(query.reload);
  const stream = query.data?.stream;
  if (query.error && !stream) {
    return (
      <main>
        <ErrorBox error={query.error} retry={query.reload} />
        <Link href="/streams">Back to streams</Link>
      </main>
    );
  }
  if (!stream) {
    return <main>{query.loading ? <Loading what="the stream" /> : <Empty level={2} title="No such stream" />}</main>;
  }
  return <StreamView stream={stream} reload={query.reload} />;
}

type StreamData = NonNullable<StreamQuery['stream']>;

/** How often the page re-reads a live stream's health. */
const HEALTH_REFRESH_MS = 5000;

/** The loaded stream. */
function StreamView({ stream, reload }: { stream: StreamData; reload: () => void }) {
  const status = useLiveStatus(stream.id, stream.metrics.status);
  const [protocol, setProtocol] = useState<'llhls' | 'whep'>('llhls');
  const [deleteError, setDeleteError] = useState<string>();
  const live = status === 'LIVE' || status === 'RECORDING' || status === 'RECONNECTING';
  const lastStatus = useRef(status);
  useEffect(() => {
    if (lastStatus.current !== status) {
      lastStatus.current = status;
      reload();
    }
  }, [status, reload]);

  // Health (bitrate, key-frame interval, reconnects) is measured while live: re-read it now and then.
  useEffect(() => {
    if (!live) {
      return;
    }
    const timer = window.setInterval(reload, HEALTH_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [live, reload]);

  const remove = async () => {
    if (!window.confirm(`Delete the stream “${stream.name}”? Its keys stop working and viewers are disconnected.`)) {
      return;
    }
    try {
      const { deleteStream } = await request(DeleteStreamDocument, { id: stream.id });
      if (deleteStream.__typename === 'DeleteSuccess') {
        navigate('/streams');
      } else {
        setDeleteError(deleteStream.message);
      }
    } catch (error) {
      setDeleteError(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <main>
      <p>
        <Link href="/streams">← Streams</Link>
      </p>
      <div className="page-head">
        <h1>{stream.name}</h1>
        <StatusBadge status={status} />
      </div>
      <p className="muted">
        Created {formatTime(stream.createdAt)} · playback ID <code>{stream.playbackId}</code>
        {stream.record ? ' · recording on' : ''}
        {stream.pullSource ? ` · pulls ${stream.pullSource.sourceUriRedacted}` : ''} ·{' '}
        <Link href={`/streams/${encodeURIComponent(stream.id)}/recordings`}>Recordings and clips</Link>
      </p>
      <section aria-labelledby="preview-heading" className="card">
        <div className="page-head">
          <h2 id="preview-heading">Preview</h2>
          <span>
            <label htmlFor="preview-player">Player</label>{' '}
            <select
              id="preview-player"
              value={protocol}
              onChange={(event) => setProtocol(event.target.value as 'llhls' | 'whep')}
            >
              <option value="llhls">LL-HLS (hls.js)</option>
              <option value="whep">WebRTC (WHEP)</option>
            </select>
          </span>
        </div>
        {live ? (
          <Suspense fallback={<Loading what="the player" />}>
            <LivePlayer playbackId={stream.playbackId} protocol={protocol} />
          </Suspense>
        ) : (
          <Empty title="Not live">
            <p className="muted">The preview starts when an encoder publishes. Status updates without reloading.</p>
          </Empty>
        )}
      </section>
      <div className="grid">
        {stream.ingestMode === 'PUSH' && <IngestPanel streamKey={stream.streamKey} />}
        <ViewersPanel streamId={stream.id} initial={stream.metrics.currentViewers} />
        <HealthPanel stream={stream} />
        {stream.ingestMode === 'PUSH' && <KeysPanel streamId={stream.id} onPrimaryChanged={reload} />}
        <PolicyPanel stream={stream} onSaved={reload} />
        <PushTargetsPanel streamId={stream.id} />
      </div>
      <AnalyticsPanel streamId={stream.id} />
      <section aria-labelledby="danger-heading" className="card danger-zone">
        <h2 id="danger-heading">Delete stream</h2>
        {deleteError && (
          <p className="error-box" role="alert">
            {deleteError}
          </p>
        )}
        <button type="button" className="danger" onClick={remove}>
          Delete this stream
        </button>
      </section>
    </main>
  );
}
