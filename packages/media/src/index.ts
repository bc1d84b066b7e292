/** Public API of @airwave/media. Deeper modules are reachable as `@airwave/media/<path>`. */
export * from './errors.js';
export * from './hub/hub.js';
export * from './hub/live-stream.js';
export * from './hub/reader.js';
export * from './hub/replay-clock.js';
export * from './hub/unit-history.js';
export * from './hub/viewer-sessions.js';
export * from './ports.js';
export * from './stream/media-unit.js';
export * from './stream/track.js';
