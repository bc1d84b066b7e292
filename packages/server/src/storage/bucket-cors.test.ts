/** The upload CORS rule is added to a bucket's rules only when none already covers the origin. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uploadCorsRule, withUploadCorsRule } from './bucket-cors.js';

const origin = 'https://airwave.example';

test('an empty bucket gets our rule: PUT from the origin, ETag exposed', () => {
  const rules = withUploadCorsRule([], origin);
  assert.deepEqual(rules, [uploadCorsRule(origin)]);
  assert.deepEqual(rules?.[0]?.AllowedOrigins, [origin]);
  assert.ok(rules?.[0]?.AllowedMethods?.includes('PUT'));
  assert.deepEqual(rules?.[0]?.ExposeHeaders, ['ETag']);
});

test('existing rules are kept and ours appended when none covers the origin', () => {
  const other = { AllowedOrigins: ['https://other.example'], AllowedMethods: ['PUT'], ExposeHeaders: ['ETag'] };
  const noEtag = { AllowedOrigins: [origin], AllowedMethods: ['PUT'] };
  const getOnly = { AllowedOrigins: ['*'], AllowedMethods: ['GET'], ExposeHeaders: ['ETag'] };
  assert.deepEqual(withUploadCorsRule([other, noEtag, getOnly], origin), [
    other,
    noEtag,
    getOnly,
    uploadCorsRule(origin),
  ]);
});

test('nothing to change when a rule (exact or *) already covers PUT and ETag', () => {
  assert.equal(withUploadCorsRule([uploadCorsRule(origin)], origin), undefined);
  const wildcard = { AllowedOrigins: ['*'], AllowedMethods: ['get', 'put'], ExposeHeaders: ['etag'] };
  assert.equal(withUploadCorsRule([wildcard], origin), undefined);
});
