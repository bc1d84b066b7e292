/**
 * Ingest URL parts of `rtmp://host:port/live/<streamKey>` (DESIGN.md §5): the application name
 * from connect and the stream key from publish, tolerating a `?query` after either.
 */

/** The only application name publishers connect to. */
export const RTMP_APP = 'live';

/** Longest stream key accepted (keys are opaque tokens). */
export const MAX_STREAM_KEY_LENGTH = 256;

/** Normalises connect's `app` (`live`, `live/`, `live?token=x`) to its name. */
export function normaliseApp(app: string): string {
  return app.split('?')[0]?.replace(/\/+$/, '') ?? '';
}

/** The stream key of a publish name (`key`, `key?param=1`), or undefined when empty, too long or malformed. */
export function streamKeyOf(publishName: string): string | undefined {
  const key = publishName.split('?')[0] ?? '';
  if (key.length === 0 || key.length > MAX_STREAM_KEY_LENGTH || /[\s/\\]/.test(key)) {
    return undefined;
  }
  return key;
}
