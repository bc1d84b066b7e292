/**
 * VOD uploads: the upload panel and the tenant's uploaded videos (storage artifacts of kind VOD,
 * plus those uploaded from this page while the server's listing lacks them), each opening its
 * asset page; deletion from the list.
 */
import { useState } from 'react';
import { request } from '../../api/client';
import { useSubscription } from '../../api/live';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { Link } from '../../router';
import { clock } from '../../ui/clock';
import { Empty, ErrorBox, Loading } from '../../ui/states';
import { formatTime } from '../streams';
import { type UploadedAsset, UploadPanel } from './upload-panel';
import { megabytes } from './vod-asset';
import { DeleteVodAssetDocument, VodLifecycleDocument, VodListDocument } from './vod-documents';

/** A row of the list. */
interface Row {
  readonly key: string;
  /** What vodAsset and deleteVodAsset accept (artifact hash or global ID). */
  readonly ref: string;
  readonly title: string;
  readonly status?: string;
  readonly durationSeconds?: number;
  readonly sizeBytes?: number;
  readonly createdAt?: string;
}

/** Uploaded from this page in this tab (memory only), newest first; emptied when the session ends. */
const uploadedHere: Row[] = [];

/** Forgets this tab's uploads (sign-out: the next account must not see them). */
export function forgetUploadedHere(): void {
  uploadedHere.length = 0;
}

/** The page. */
export function VodPage() {
  const list = useQuery(VodListDocument, { input: { kinds: ['VOD'], first: 100 } });
  const [, setUploads] = useState(0);
  const { busy, failure, run } = useAction(list.reload);
  useSubscription(VodLifecycleDocument, {}, list.reload);

  const uploaded = ({ hash, title }: UploadedAsset) => {
    uploadedHere.unshift({ key: hash, ref: hash, title });
    setUploads((n) => n + 1);
    list.reload();
  };

  const listed = (list.data?.storageArtifactsConnection.nodes ?? [])
    .filter((node) => node.kind === 'VOD')
    .map<Row>((node) => ({
      key: node.hash,
      ref: node.hash,
      title: node.title ?? node.hash,
      status: node.status,
      durationSeconds: node.durationSeconds,
      sizeBytes: node.sizeBytes,
      createdAt: node.createdAt,
    }));
  const known = new Set(listed.map((row) => row.key));
  const rows = [...uploadedHere.filter((row) => !known.has(row.key)), ...listed];
  return (
    <main>
      <div className="page-head">
        <h1>VOD uploads</h1>
      </div>
      <UploadPanel onUploaded={uploaded} />
      <section aria-labelledby="vod-list-heading" className="card">
        <h2 id="vod-list-heading">Videos</h2>
        {list.error && <ErrorBox error={list.error} retry={list.reload} />}
        {!list.data && list.loading && <Loading what="videos" />}
        {failure && (
          <p className="error-box" role="alert">
            {failure.message}
          </p>
        )}
        {list.data && rows.length === 0 && (
          <Empty title="No videos yet">
            <p className="muted">Upload a video file above; it plays as HLS, DASH and MP4 once processed.</p>
          </Empty>
        )}
        {rows.length > 0 && (
          <ul className="list" aria-label="Videos">
            {rows.map((row) => (
              <li key={row.key} data-testid="vod-row">
                <span>
                  <Link href={`/vod/${encodeURIComponent(row.ref)}`}>
                    <strong>{row.title}</strong>
                  </Link>{' '}
                  {row.status && <span className="badge">{row.status}</span>}
                  {row.createdAt && (
                    <>
                      <br />
                      <small className="muted">
                        {clock(row.durationSeconds ?? 0)} · {megabytes(row.sizeBytes)} · {formatTime(row.createdAt)}
                      </small>
                    </>
                  )}
                </span>
                <button
                  type="button"
                  className="small danger"
                  disabled={busy}
                  aria-label={`Delete video ${row.title}`}
                  onClick={() => {
                    if (window.confirm(`Delete “${row.title}” and every file made from it?`)) {
                      void run(async () => {
                        const { deleteVodAsset } = await request(DeleteVodAssetDocument, { id: row.ref });
                        if (deleteVodAsset.__typename === 'DeleteSuccess') {
                          uploadedHere.splice(0, uploadedHere.length, ...uploadedHere.filter((r) => r.key !== row.key));
                        }
                        return deleteVodAsset;
                      });
                    }
                  }}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
