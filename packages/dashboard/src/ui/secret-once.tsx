/**
 * A secret shown once (stream key, developer token, private PEM): copy or download it now; it lives
 * only in this component's memory and is gone when dismissed or when the page changes.
 */
import { CopyButton } from './copy-button';

/** Props of the one-time secret panel. */
export interface SecretOnceProps {
  readonly title: string;
  readonly value: string;
  /** Offer a download under this file name (e.g. a PEM). */
  readonly filename?: string;
  readonly onDone: () => void;
}

/** Triggers a download of `text` as `filename` from an object URL revoked right after. */
function download(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-pem-file' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  URL.revokeObjectURL(url);
}

/** The panel: value, copy, optional download, and a dismiss button. */
export function SecretOnce({ title, value, filename, onDone }: SecretOnceProps) {
  return (
    <section className="secret-once" aria-label={title}>
      <h3>{title}</h3>
      <p>
        <strong>Shown once.</strong> Copy it now: Airwave does not keep it and cannot show it again.
      </p>
      <pre className="secret-value" data-testid="secret-value">
        {value}
      </pre>
      <div className="row">
        <CopyButton value={value} label={title} />
        {filename && (
          <button type="button" className="small" onClick={() => download(value, filename)}>
            Download {filename}
          </button>
        )}
        <button type="button" className="small" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
