/** CORS (WHATWG Fetch standard, CORS protocol) for browser players (hls.js, dash.js, <video>, WHEP clients) on `/play`. */

/** Headers added to every `/play` response. */
export const PLAY_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'Content-Length, Content-Type, Cache-Control, Date, Age, Retry-After, WWW-Authenticate',
};

/** Headers of the answer to a preflight (OPTIONS) request. */
export const PLAY_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...PLAY_CORS_HEADERS,
  'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Range, Content-Type, If-None-Match, If-Modified-Since',
  'access-control-max-age': '86400',
};
