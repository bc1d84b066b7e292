/**
 * Parent objects of recording and clip types as the modules build them: every field but the
 * retention ones, which the retention module resolves (codegen maps the GraphQL types to these).
 */
import type { Clip, DvrRequest } from '../generated/resolvers-types.js';

/** A Clip as built from its record. */
export type ClipParent = Omit<Clip, 'effectiveRetention' | 'isExpired'>;

/** A DVRRequest as built from its record. */
export type DvrRequestParent = Omit<DvrRequest, 'effectiveRetention' | 'expiresAt' | 'isExpired'>;
