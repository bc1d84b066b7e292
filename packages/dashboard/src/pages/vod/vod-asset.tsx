/**
 * One VOD asset: its status and processing progress (polled while it processes, and reloaded on
 * every liveVodLifecycle event), what processing found, a player with thumbnail scrubbing once
 * READY, and deletion.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { ApiError, request } from '../../api/client';
import { useSubscription } from '../../api/live';
import { useQuery } from '../../api/use-query';
import { Link, navigate } from '../../router';
import { clock } from '../../ui/clock';
import { Empty, ErrorBox, Loading } from '../../ui/states';
import { formatTime } from '../streams';
import { DeleteVodAssetDocument, VodAssetDocument, VodLifecycleDocument } from './vod-documents';

const LivePlayer = lazy(() => import('../../player/live-player'));

const SETTLED = new Set(['READY', 'FAILED', 'DELETED', 'EXPIRED']);

/** Bytes as MB. */
export function megabytes(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined ? '—' : `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The page of the asset `id` (global ID, UUID or artifact hash). */
export function VodAssetPage({ id }: { id: string }) {
  const query = useQuery(VodAssetDocument, { id });
  const asset = query.data?.vodAsset;
  const [deleteError, setDeleteError] = useState<string>();
  const settled = asset ? SETTLED.has(asset.status) : false;
  useSubscription(VodLifecycleDocument, {}, query.reload, !settled);
  useEffect(() => {
    if (!asset || settled) {
      return;
    }
    const timer = window.setInterval(query.reload, 1000);
    return () => window.clearInterval(timer);
  }, [asset, settled, query.reload]);

  const remove = async () => {
    if (!asset || !window.confirm(`Delete “${asset.title ?? asset.filename}” and every file made from it?`)) {
      return;
    }
    try {
      const { deleteVodAsset } = await request(DeleteVodAssetDocument, { id: asset.id });
      if (deleteVodAsset.__typename === 'DeleteSuccess') {
        navigate('/vod');
      } else {
        setDeleteError(deleteVodAsset.message);
      }
    } catch (error) {
      setDeleteError(error instanceof ApiError ? error.message : String(error));
    }
  };

  if (!asset) {
    return (
      <main>
        <p>
          <Link href="/vod">← VOD uploads</Link>
        </p>
        {query.error && <ErrorBox error={query.error} retry={query.reload} />}
        {query.loading ? <Loading what="the video" /> : !query.error && <Empty level={2} title="No such video" />}
      </main>
    );
  }
  return (
    <main>
      <p>
        <Link href="/vod">← VOD uploads</Link>
      </p>
      <div className="page-head">
        <h1>{asset.title ?? asset.filename}</h1>
        <span className={`badge badge-${asset.status.toLowerCase()}`} data-testid="vod-status">
          {asset.status}
        </span>
      </div>
      {asset.status === 'PROCESSING' && (
        <div className="upload-progress">
          <progress max={100} value={asset.progressPercent} aria-label="Processing progress" />
          <span>{Math.floor(asset.progressPercent)} %</span>
        </div>
      )}
      {asset.errorMessage && (
        <p className="error-box" role="alert">
          Processing failed: {asset.errorMessage}
        </p>
      )}
      {asset.status === 'READY' && (
        <section aria-labelledby="vod-player-heading" className="card">
          <h2 id="vod-player-heading">Player</h2>
          <Suspense fallback={<Loading what="the player" />}>
            <LivePlayer playbackId={asset.playbackId} protocol="llhls" live={false} />
          </Suspense>
        </section>
      )}
      <section aria-labelledby="vod-facts-heading" className="card">
        <h2 id="vod-facts-heading">Details</h2>
        <dl className="facts">
          <dt>File</dt>
          <dd>{asset.filename}</dd>
          <dt>Playback ID</dt>
          <dd>
            <code>{asset.playbackId}</code>
          </dd>
          <dt>Duration</dt>
          <dd>{asset.durationMs === null ? '—' : clock(asset.durationMs / 1000)}</dd>
          <dt>Video</dt>
          <dd>{[asset.resolution, asset.videoCodec].filter(Boolean).join(' · ') || '—'}</dd>
          <dt>Audio</dt>
          <dd>{asset.audioCodec ?? '—'}</dd>
          <dt>Uploaded</dt>
          <dd>{megabytes(asset.sizeBytes)}</dd>
          <dt>Stored</dt>
          <dd>{megabytes(asset.storedBytes)}</dd>
          <dt>Outputs</dt>
          <dd>{asset.outputs.length > 0 ? asset.outputs.join(', ') : '—'}</dd>
          <dt>Created</dt>
          <dd>{formatTime(asset.createdAt)}</dd>
        </dl>
      </section>
      <section aria-labelledby="vod-delete-heading" className="card danger-zone">
        <h2 id="vod-delete-heading">Delete</h2>
        <p className="muted">
          The video, every rendition and its thumbnails are removed; its playback URLs stop working.
        </p>
        <button type="button" className="danger" onClick={remove}>
          Delete video
        </button>
        {deleteError && (
          <p className="field-error" role="alert">
            {deleteError}
          </p>
        )}
      </section>
    </main>
  );
}
