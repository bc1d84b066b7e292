/**
 * Recordings of a stream: start/stop recording, the recordings, chapters and clips in storage with
 * a player, "create clip from here" at the player's position, and clip deletion. The list follows
 * the stream's status, recording lifecycle and storage events live (no Refresh needed).
 */
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { request } from '../../api/client';
import { useLiveConnected, useSubscription } from '../../api/live';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { graphql } from '../../generated';
import { Link } from '../../router';
import { clock } from '../../ui/clock';
import { errorFor, Field, formError } from '../../ui/field';
import { Empty, ErrorBox, Loading } from '../../ui/states';
import { useLiveStatus } from '../../ui/status';
import { formatTime } from '../streams';

const LivePlayer = lazy(() => import('../../player/live-player'));

const ArtifactsDocument = graphql(`
  query StreamArtifacts($id: ID!, $input: StorageArtifactsInput) {
    stream(id: $id) { id name record metrics { status } }
    storageArtifactsConnection(input: $input) {
      totalCount
      nodes { id kind hash playbackId title status durationSeconds sizeBytes createdAt errorMessage }
    }
  }
`);

const StartDvrDocument = graphql(`
  mutation StartDvr($streamId: ID!) {
    startDVR(streamId: $streamId) {
      __typename
      ... on DVRRequest { dvrHash status }
      ...Failure
    }
  }
`);

const StopDvrDocument = graphql(`
  mutation StopDvr($dvrHash: ID!) {
    stopDVR(dvrHash: $dvrHash) {
      __typename
      ... on DeleteSuccess { deletedId }
      ...Failure
    }
  }
`);

const CreateClipDocument = graphql(`
  mutation CreateClip($input: CreateClipInput!) {
    createClip(input: $input) {
      __typename
      ... on Clip { id playbackId title status }
      ...Failure
    }
  }
`);

const DeleteClipDocument = graphql(`
  mutation DeleteClip($id: ID!) {
    deleteClip(id: $id) {
      __typename
      ... on DeleteSuccess { deletedId }
      ...Failure
    }
  }
`);

const DvrEventsDocument = graphql(`
  subscription RecordingDvrEvents($streamId: ID!) {
    liveDvrLifecycle(streamId: $streamId) { eventId status }
  }
`);

const StorageEventsDocument = graphql(`
  subscription RecordingStorageEvents($streamId: ID!) {
    liveStorageEvents(streamId: $streamId) { eventId action }
  }
`);

const OPEN = new Set(['requested', 'starting', 'recording', 'finalizing']);

/** The page for the stream with global ID `id`. */
export function RecordingsPage({ id }: { id: string }) {
  const artifacts = useQuery(ArtifactsDocument, {
    id,
    input: { streamId: id, first: 100, kinds: ['DVR', 'CHAPTER', 'CLIP'] },
  });
  const [playing, setPlaying] = useState<{ playbackId: string; kind: string; title: string }>();
  const [position, setPosition] = useState(0);
  const { busy, failure, run } = useAction(artifacts.reload);
  useLiveConnected(artifacts.reload);
  useSubscription(DvrEventsDocument, { streamId: id }, artifacts.reload);
  useSubscription(StorageEventsDocument, { streamId: id }, artifacts.reload);

  const clip = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void run(
      async () =>
        (
          await request(CreateClipDocument, {
            input: {
              streamId: id,
              title: String(data.get('title') ?? ''),
              mode: 'DURATION',
              startMedia: Math.floor(position),
              duration: Number(data.get('duration') ?? 10),
            },
          })
        ).createClip,
    );
  };

  const stream = artifacts.data?.stream;
  const status = useLiveStatus(id, stream?.metrics.status ?? 'OFFLINE');
  const nodes = artifacts.data?.storageArtifactsConnection.nodes ?? [];
  const recordings = nodes.filter((node) => node.kind === 'DVR');
  const open = recordings.find((node) => OPEN.has(node.status));
  const top = formError(failure, ['title', 'duration', 'startMedia']);
  return (
    <main>
      <p>
        <Link href={`/streams/${encodeURIComponent(id)}`}>← {stream?.name ?? 'Stream'}</Link>
      </p>
      <div className="page-head">
        <h1>Recordings{stream ? ` of ${stream.name}` : ''}</h1>
        {open ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(async () => (await request(StopDvrDocument, { dvrHash: open.hash })).stopDVR)}
          >
            Stop recording
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            disabled={busy || !stream || status === 'OFFLINE'}
            onClick={() => void run(async () => (await request(StartDvrDocument, { streamId: id })).startDVR)}
          >
            Start recording
          </button>
        )}
      </div>
      {top && (
        <p className="error-box" role="alert">
          {top}
        </p>
      )}
      {artifacts.error && <ErrorBox error={artifacts.error} retry={artifacts.reload} />}
      {!artifacts.data && artifacts.loading && <Loading what="recordings" />}
      {playing && (
        <section aria-labelledby="player-heading" className="card">
          <h2 id="player-heading">{playing.title}</h2>
          <Suspense fallback={<Loading what="the player" />}>
            <LivePlayer playbackId={playing.playbackId} protocol="llhls" live={false} onTime={setPosition} />
          </Suspense>
          {playing.kind === 'DVR' && (
            <form onSubmit={clip} className="inline-form" noValidate>
              <Field label="Clip title" name="title" required maxLength={256} error={errorFor(failure, 'title')} />
              <Field
                label="Length (s)"
                name="duration"
                type="number"
                min={1}
                defaultValue={10}
                error={errorFor(failure, 'duration')}
              />
              <button type="submit" className="primary" disabled={busy}>
                Create clip from here ({clock(position)})
              </button>
            </form>
          )}
        </section>
      )}
      {artifacts.data && nodes.length === 0 && (
        <Empty level={2} title="No recordings yet">
          <p className="muted">
            {stream?.record ? 'This stream records while live.' : 'Start recording while the stream is live.'} Chapters
            and clips appear here too.
          </p>
        </Empty>
      )}
      {nodes.length > 0 && (
        <ul className="list" aria-label="Recordings, chapters and clips">
          {nodes.map((node) => (
            <li key={node.id} data-testid={`artifact-${node.kind.toLowerCase()}`}>
              <span>
                <span className="badge">{node.kind}</span> <strong>{node.title ?? node.hash}</strong>{' '}
                <span className="badge">{node.status}</span>
                <br />
                <small className="muted">
                  {clock(node.durationSeconds)} · {(node.sizeBytes / 1e6).toFixed(1)} MB · {formatTime(node.createdAt)}
                  {node.errorMessage ? ` · ${node.errorMessage}` : ''}
                </small>
              </span>
              <span className="row">
                <button
                  type="button"
                  className="small"
                  aria-label={`Play ${node.kind.toLowerCase()} ${node.title ?? node.hash}`}
                  onClick={() =>
                    setPlaying({ playbackId: node.playbackId, kind: node.kind, title: node.title ?? node.hash })
                  }
                >
                  Play
                </button>
                {node.kind === 'CLIP' && (
                  <button
                    type="button"
                    className="small danger"
                    disabled={busy}
                    aria-label={`Delete clip ${node.title ?? node.hash}`}
                    onClick={() =>
                      void run(async () => (await request(DeleteClipDocument, { id: node.id })).deleteClip)
                    }
                  >
                    Delete
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <button type="button" onClick={artifacts.reload}>
          Refresh
        </button>
      </p>
    </main>
  );
}
