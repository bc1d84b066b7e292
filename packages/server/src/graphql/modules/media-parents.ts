/**
 * Parent objects of recording and clip types as the modules build them: every field but the
 * retention ones and a clip's policy, which other resolvers look up (codegen maps the GraphQL types to these).
 */
import type { Clip, DvrRequest } from '../generated/resolvers-types.js';

/** A Clip as built from its record. */
export type ClipParent = Omit<Clip, 'effectiveRetention' | 'isExpired' | 'playbackPolicy'>;

/** A DVRRequest as built from its record. */
export type DvrRequestParent = Omit<DvrRequest, 'effectiveRetention' | 'expiresAt' | 'isExpired'>;
