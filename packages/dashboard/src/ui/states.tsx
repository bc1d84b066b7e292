/** Loading, error and empty states shared by every page. */
import type { ReactNode } from 'react';
import type { ApiError } from '../api/client';

/** A polite loading line for screen readers and eyes. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** An error from the API, with a retry when one makes sense. */
export function ErrorBox({ error, retry }: { error: ApiError | Error; retry?: () => void }) {
  return (
    <div className="error-box" role="alert">
      <p>{error.message}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** What a page shows when there is nothing yet, and what to do about it. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <h3>{title}</h3>
      {children}
    </div>
  );
}
