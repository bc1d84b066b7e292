/**
 * Uploading a video as VOD: drop a file on the zone or choose it with the file picker (keyboard
 * users), optionally title it, then createVodUpload → PUT each part to its presigned URL with a
 * progress bar → completeVodUpload. A failure aborts the upload so its parts are dropped.
 */
import { type DragEvent, type FormEvent, useId, useRef, useState } from 'react';
import { ApiError, request } from '../../api/client';
import { Link } from '../../router';
import { errorFor, Field, type FieldFailure, formError } from '../../ui/field';
import { uploadParts } from './upload-parts';
import { AbortVodUploadDocument, CompleteVodUploadDocument, CreateVodUploadDocument } from './vod-documents';

type Phase = 'idle' | 'uploading' | 'completing';

/** What the panel tells its page about an asset once processing has started. */
export interface UploadedAsset {
  /** Artifact hash (what the storage listing shows and vodAsset accepts). */
  readonly hash: string;
  readonly title: string;
}

/** The panel; `onUploaded` is called once an upload is complete and processing has started. */
export function UploadPanel({ onUploaded }: { onUploaded: (asset: UploadedAsset) => void }) {
  const inputId = useId();
  const [file, setFile] = useState<File>();
  const [over, setOver] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [percent, setPercent] = useState(0);
  const [failure, setFailure] = useState<FieldFailure>();
  const [done, setDone] = useState<{ id: string; title: string }>();
  const cancel = useRef<AbortController>();

  const pick = (chosen: File | undefined) => {
    if (chosen) {
      setFile(chosen);
      setDone(undefined);
      setFailure(undefined);
      setPercent(0);
    }
  };
  const drop = (event: DragEvent<HTMLFieldSetElement>) => {
    event.preventDefault();
    setOver(false);
    if (phase === 'idle') {
      pick(event.dataTransfer.files[0]);
    }
  };

  const upload = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) {
      setFailure({ message: 'Choose a video file first.', field: 'filename' });
      return;
    }
    const form = event.currentTarget;
    const title = String(new FormData(form).get('title') ?? '').trim();
    const controller = new AbortController();
    cancel.current = controller;
    setFailure(undefined);
    setPercent(0);
    setPhase('uploading');
    let uploadId: string | undefined;
    try {
      const { createVodUpload: session } = await request(CreateVodUploadDocument, {
        input: {
          filename: file.name,
          sizeBytes: file.size,
          contentType: file.type.startsWith('video/') ? file.type : 'application/octet-stream',
          ...(title ? { title } : {}),
        },
      });
      if (session.__typename !== 'VodUploadSession') {
        setFailure({ message: session.message, field: 'field' in session ? session.field : null });
        return;
      }
      uploadId = session.id;
      const parts = await uploadParts(
        file,
        session,
        (fraction) => setPercent(Math.floor(fraction * 100)),
        controller.signal,
      );
      setPercent(100);
      setPhase('completing');
      const { completeVodUpload: asset } = await request(CompleteVodUploadDocument, {
        input: { uploadId: session.id, parts },
      });
      if (asset.__typename !== 'VodAsset') {
        setFailure({ message: asset.message ?? 'The upload could not be completed.' });
        return;
      }
      uploadId = undefined;
      setFile(undefined);
      form.reset();
      setDone({ id: asset.id, title: title || file.name });
      onUploaded({ hash: asset.artifactHash, title: title || file.name });
    } catch (error) {
      setFailure({ message: error instanceof ApiError || error instanceof Error ? error.message : String(error) });
    } finally {
      if (uploadId) {
        void request(AbortVodUploadDocument, { uploadId }).catch(() => {});
      }
      cancel.current = undefined;
      setPhase('idle');
    }
  };

  const busy = phase !== 'idle';
  const fileError = errorFor(failure, 'filename') ?? errorFor(failure, 'sizeBytes') ?? errorFor(failure, 'contentType');
  const top = formError(failure, ['filename', 'sizeBytes', 'contentType', 'title']);
  return (
    <section aria-labelledby="upload-heading" className="card">
      <h2 id="upload-heading">Upload a video</h2>
      <form onSubmit={upload} noValidate>
        <fieldset
          className={over ? 'dropzone over' : 'dropzone'}
          data-testid="dropzone"
          onDragOver={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={drop}
        >
          <legend className="visually-hidden">Video file</legend>
          <p>Drop a video file here, or</p>
          <label htmlFor={inputId}>Choose a video file</label>{' '}
          <input
            id={inputId}
            type="file"
            accept="video/*,.mp4,.mov,.mkv,.webm,.ts,.m4v,.flv"
            disabled={busy}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? `${inputId}-error` : undefined}
            onChange={(event) => pick(event.currentTarget.files?.[0])}
          />
          {file && (
            <p data-testid="chosen-file">
              <strong>{file.name}</strong> · {(file.size / 1e6).toFixed(1)} MB
            </p>
          )}
          {fileError && (
            <small id={`${inputId}-error`} className="field-error" role="alert">
              {fileError}
            </small>
          )}
        </fieldset>
        <div className="inline-form top-gap">
          <Field
            label="Title (optional)"
            name="title"
            maxLength={256}
            disabled={busy}
            error={errorFor(failure, 'title')}
          />
          <button type="submit" className="primary" disabled={busy || !file}>
            {phase === 'completing' ? 'Finishing…' : busy ? 'Uploading…' : 'Upload'}
          </button>
          {phase === 'uploading' && (
            <button type="button" onClick={() => cancel.current?.abort()}>
              Cancel upload
            </button>
          )}
        </div>
      </form>
      {(busy || percent > 0) && (
        <div className="upload-progress">
          <progress max={100} value={percent} aria-label="Upload progress" data-testid="upload-progress" />
          <span data-testid="upload-percent" aria-live="polite">
            {percent} %
          </span>
        </div>
      )}
      {done && (
        <p role="status" data-testid="upload-done">
          “{done.title}” is uploaded and processing. <Link href={`/vod/${encodeURIComponent(done.id)}`}>Open it</Link>
        </p>
      )}
      {top && (
        <p className="error-box" role="alert">
          {top}
        </p>
      )}
    </section>
  );
}
