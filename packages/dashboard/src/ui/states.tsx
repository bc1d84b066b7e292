/** Loading, error and empty states shared by every page. */
import type { ReactNode } from 'react';
import { ApiError } from '../api/client';

/** A polite loading line for screen readers and eyes. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** What a NOT_FOUND says to a person (the service's message names the raw global ID). */
const NOT_FOUND_MESSAGE = 'Not found: it may have been deleted, or the link is wrong.';

/** An error from the API, with a retry when one makes sense (not for NOT_FOUND: trying again cannot help). */
export function ErrorBox({ error, retry }: { error: ApiError | Error; retry?: () => void }) {
  const notFound = error instanceof ApiError && error.code === 'NOT_FOUND';
  return (
    <div className="error-box" role="alert">
      <p>{notFound ? NOT_FOUND_MESSAGE : error.message}</p>
      {retry && !notFound && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/**
 * What a page shows when there is nothing yet, and what to do about it. `level` keeps headings in
 * order: 2 straight under a page's h1, 3 (the default) inside a card under its h2.
 */
export function Empty({ title, children, level = 3 }: { title: string; children?: ReactNode; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="empty">
      <Heading>{title}</Heading>
      {children}
    </div>
  );
}
