/**
 * The bucket CORS rule browser uploads need (issue 21): the dashboard's origin may PUT parts to
 * presigned URLs and read their `ETag`. Rules the bucket already has are kept; ours is added
 * only when no rule already allows PUT from that origin with `ETag` exposed.
 */
import type { CORSRule } from '@aws-sdk/client-s3';

/** Our rule for `origin` (scheme://host[:port]). */
export function uploadCorsRule(origin: string): CORSRule {
  return {
    ID: 'airwave-browser-uploads',
    AllowedOrigins: [origin],
    AllowedMethods: ['PUT', 'GET', 'HEAD'],
    AllowedHeaders: ['*'],
    ExposeHeaders: ['ETag'],
    MaxAgeSeconds: 3600,
  };
}

/** True when `rule` lets `origin` PUT and exposes ETag. */
function covers(rule: CORSRule, origin: string): boolean {
  const originOk = (rule.AllowedOrigins ?? []).some((allowed) => allowed === '*' || allowed === origin);
  const putOk = (rule.AllowedMethods ?? []).some((method) => method.toUpperCase() === 'PUT');
  const etagOk = (rule.ExposeHeaders ?? []).some((header) => header.toLowerCase() === 'etag');
  return originOk && putOk && etagOk;
}

/** The bucket's rules with ours appended, or undefined when they already allow `origin`'s uploads. */
export function withUploadCorsRule(rules: readonly CORSRule[], origin: string): CORSRule[] | undefined {
  if (rules.some((rule) => covers(rule, origin))) {
    return undefined;
  }
  return [...rules, uploadCorsRule(origin)];
}
