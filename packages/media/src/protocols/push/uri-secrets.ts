/**
 * Keeps a push destination's secrets out of what users and logs read: every secret part of the
 * URI (the stream key path segments, user information, query values such as an SRT streamid or
 * passphrase) is replaced by `***` in any text before it is shown or logged.
 */

/** The secret parts of a destination URI, longest first. */
export function secretsOf(uri: string): string[] {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return [uri];
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const parts = [
    ...segments.slice(1),
    ...segments.slice(1).map((segment) => safeDecode(segment)),
    url.username,
    url.password,
    ...[...url.searchParams.values()],
    ...[...url.searchParams.values()].map((value) => encodeURIComponent(value)),
    url.search.slice(1),
    uri,
  ];
  return [...new Set(parts.filter((part) => part.length >= 3))].sort((a, b) => b.length - a.length);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `text` with every secret replaced by `***`, cut to `max` characters. */
export function withoutSecrets(text: string, secrets: readonly string[], max = 300): string {
  let out = text;
  for (const secret of secrets) {
    out = out.split(secret).join('***');
  }
  return out.slice(0, max);
}
