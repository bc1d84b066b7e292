/** The content type a storage key's extension implies (media, playlists, images, cue files). */
const byExtension: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  mpd: 'application/dash+xml',
  m4s: 'video/iso.segment',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  ts: 'video/mp2t',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  vtt: 'text/vtt',
  json: 'application/json',
};

/** The content type of a key by its extension, or undefined when the extension is not a known one. */
export function contentTypeOfKey(key: string): string | undefined {
  const dot = key.lastIndexOf('.');
  return dot < 0 || dot < key.lastIndexOf('/') ? undefined : byExtension[key.slice(dot + 1).toLowerCase()];
}
