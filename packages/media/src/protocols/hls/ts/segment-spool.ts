/** The file ring of finished segments, shared with the CMAF packager (its home is protocols/shared). */
export { SegmentSpool, SpooledSegment } from '../../shared/segment-spool.js';
