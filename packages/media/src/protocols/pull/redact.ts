/**
 * Removes secrets from pull URIs and from text that may quote them (ffmpeg's messages): user
 * information, query values (SRT passphrases, tokens) and fragments become `***`.
 */

/** The URI without credentials, query values or fragment; `***` when it is not a URI. */
export function redactUri(uri: string): string {
  let copy: URL;
  try {
    copy = new URL(uri);
  } catch {
    return '***';
  }
  const hadCredentials = copy.username !== '' || copy.password !== '';
  const keys = [...new Set(copy.searchParams.keys())];
  copy.username = '';
  copy.password = '';
  copy.hash = '';
  copy.search = '';
  let text = copy.href;
  if (hadCredentials) {
    text = text.replace('//', '//***@');
  }
  if (keys.length > 0) {
    text += `?${keys.map((key) => `${encodeURIComponent(key)}=***`).join('&')}`;
  }
  return text;
}

const URI_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi;

/** `text` with every URI in it redacted (and cut to `max` characters). */
export function redactText(text: string, max = 300): string {
  return text.replace(URI_IN_TEXT, (uri) => redactUri(uri)).slice(0, max);
}
