import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../errors.js';
import { maskTargetUri, parseTargetUri } from './target-uri.js';

const FIELD = 'input.targetUri';

function refused(uri: string, constraint: string) {
  assert.throws(
    () => parseTargetUri(uri, FIELD),
    (error: unknown) => error instanceof ValidationError && error.field === FIELD && error.constraint === constraint,
    `${uri} → ${constraint}`,
  );
}

describe('push target URIs', () => {
  it('accepts rtmp, rtmps and srt caller URIs and answers scheme and host', () => {
    assert.deepEqual(parseTargetUri('rtmp://live.twitch.tv/app/live_1234_abcd', FIELD), {
      scheme: 'rtmp',
      host: 'live.twitch.tv',
    });
    assert.deepEqual(parseTargetUri('rtmps://live-api-s.facebook.com:443/rtmp/FB-1-2', FIELD), {
      scheme: 'rtmps',
      host: 'live-api-s.facebook.com',
    });
    assert.deepEqual(parseTargetUri('srt://[2001:db8::1]:9000?streamid=abc&passphrase=0123456789', FIELD), {
      scheme: 'srt',
      host: '2001:db8::1',
    });
    assert.equal(parseTargetUri('rtmp://h/a/b/key?x=1', FIELD).scheme, 'rtmp');
  });

  it('refuses other schemes, missing parts, credentials, fragments and bad SRT options', () => {
    refused('http://example.com/live/key', 'scheme');
    refused('rist://example.com:9000', 'scheme');
    refused('file:///etc/passwd', 'scheme');
    refused('not a uri', 'uri');
    refused('', 'uri');
    refused('rtmp://example.com/app', 'path');
    refused('rtmp://example.com/', 'path');
    refused('rtmp://user:pw@example.com/app/key', 'credentials');
    refused('rtmp://example.com/app/key#frag', 'fragment');
    refused('srt://example.com', 'port');
    refused('srt://example.com:9000/path', 'path');
    refused('srt://example.com:9000?mode=listener', 'srt_option');
    refused('srt://example.com:9000?passphrase=short', 'passphrase');
    refused(`srt://example.com:9000?passphrase=${'p'.repeat(80)}`, 'passphrase');
    refused('srt://example.com:9000?pbkeylen=12', 'pbkeylen');
    refused('srt://example.com:9000?streamid=a&streamid=b', 'srt_option');
    refused(`rtmp://example.com/app/${'k'.repeat(2100)}`, 'length');
  });

  it('masks: no credentials, query or fragment, the key cut to a short prefix that never holds it', () => {
    assert.equal(
      maskTargetUri('rtmp://live.twitch.tv/app/live_123456789_abcdefghij'),
      'rtmp://live.twitch.tv/app/live****',
    );
    assert.equal(maskTargetUri('rtmps://h:443/rtmp/FB-12?s_bl=1&a=b'), 'rtmps://h:443/rtmp/F****');
    assert.equal(maskTargetUri('rtmp://h/app/abc'), 'rtmp://h/app/****');
    assert.equal(maskTargetUri('rtmp://h/a/b/key-of-sixteen-ch'), 'rtmp://h/a/b/key-****');
    assert.equal(maskTargetUri('srt://h:9000?streamid=secret&passphrase=0123456789'), 'srt://h:9000');
    for (const key of ['k', 'key1', 'a-much-longer-stream-key-value', '%41%42%43%44']) {
      assert.ok(!maskTargetUri(`rtmp://h/app/${key}`).includes(key), key);
    }
  });
});
