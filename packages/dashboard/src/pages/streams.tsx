/** The streams list: name, live status (liveStreamEvents), viewers, created; search and paging. */
import { type FormEvent, useState } from 'react';
import { useLiveConnected } from '../api/live';
import { useQuery } from '../api/use-query';
import { graphql } from '../generated';
import { Link, navigate } from '../router';
import { ScrollRegion } from '../ui/scroll-region';
import { Empty, ErrorBox, Loading } from '../ui/states';
import { LiveStatus } from '../ui/status';

const StreamsDocument = graphql(`
  query Streams($page: ConnectionInput, $search: String) {
    streamsConnection(page: $page, search: $search) {
      totalCount
      pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
      nodes { id name createdAt ingestMode metrics { status currentViewers } }
    }
  }
`);

const PAGE_SIZE = 20;

/** Formats a timestamp in the viewer's locale. */
export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString();
}

/** The page. Search text and cursor live in the URL (they are not secrets). */
export function StreamsPage({ query }: { query: URLSearchParams }) {
  const search = query.get('q') ?? '';
  const after = query.get('after');
  const before = query.get('before');
  const page = before ? { last: PAGE_SIZE, before } : { first: PAGE_SIZE, ...(after ? { after } : {}) };
  const streams = useQuery(StreamsDocument, { page, search: search || null });
  useLiveConnected(streams.reload);
  const [text, setText] = useState(search);
  const [shown, setShown] = useState(search);
  if (shown !== search) {
    // Back/forward or the Streams link changed the search in the URL: the box follows it.
    setShown(search);
    setText(search);
  }
  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(params);
    navigate(`/streams${next.size > 0 ? `?${next}` : ''}`);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go(text ? { q: text } : {});
  };
  const connection = streams.data?.streamsConnection;
  return (
    <main>
      <div className="page-head">
        <h1>Streams</h1>
        <Link href="/streams/new" className="button primary">
          Create stream
        </Link>
      </div>
      <form className="search" onSubmit={submit}>
        <label htmlFor="stream-search" className="visually-hidden">
          Search streams by name
        </label>
        <input
          id="stream-search"
          type="search"
          placeholder="Search by name"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit">Search</button>
      </form>
      {streams.error && <ErrorBox error={streams.error} retry={streams.reload} />}
      {!connection && streams.loading && <Loading what="streams" />}
      {connection && connection.nodes.length === 0 && (
        <Empty level={2} title={search ? `No stream matches “${search}”` : 'No streams yet'}>
          {!search && (
            <p>
              Create a stream, then point OBS or ffmpeg at its RTMP, SRT or WHIP URL.{' '}
              <Link href="/streams/new">Create your first stream</Link>
            </p>
          )}
        </Empty>
      )}
      {connection && connection.nodes.length > 0 && (
        <>
          <ScrollRegion label="Streams table">
            <table className="streams">
              <caption className="visually-hidden">Your streams ({connection.totalCount})</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Viewers</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {connection.nodes.map((stream) => (
                  <tr key={stream.id}>
                    <td>
                      <Link href={`/streams/${encodeURIComponent(stream.id)}`}>{stream.name}</Link>
                      {stream.ingestMode === 'PULL' && <span className="muted"> · pull</span>}
                    </td>
                    <td>
                      <LiveStatus streamId={stream.id} initial={stream.metrics.status} />
                    </td>
                    <td>{stream.metrics.currentViewers}</td>
                    <td>{formatTime(stream.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <nav className="pager" aria-label="Pages of streams">
            <span className="muted">{connection.totalCount} streams</span>
            <button
              type="button"
              disabled={!(connection.pageInfo.hasPreviousPage || after) || !connection.pageInfo.startCursor}
              onClick={() => go({ ...(search ? { q: search } : {}), before: connection.pageInfo.startCursor ?? '' })}
            >
              Previous
            </button>
            <button
              type="button"
              disabled={!(connection.pageInfo.hasNextPage || before) || !connection.pageInfo.endCursor}
              onClick={() => go({ ...(search ? { q: search } : {}), after: connection.pageInfo.endCursor ?? '' })}
            >
              Next
            </button>
          </nav>
        </>
      )}
    </main>
  );
}
