/** What an SRT pull URI asks of our caller. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { srtSourceParameters } from './srt-pull-input.js';

const read = (uri: string) => srtSourceParameters(new URL(uri));

describe('srtSourceParameters', () => {
  it('reads streamid, passphrase, pbkeylen and latency (µs, as ffmpeg reads it)', () => {
    assert.deepEqual(
      read('srt://h:9000?streamid=%23!%3A%3Ar%3Dcam&passphrase=0123456789ab&pbkeylen=24&latency=250000'),
      {
        streamId: '#!::r=cam',
        passphrase: '0123456789ab',
        keyLength: 24,
        latencyMs: 250,
      },
    );
    assert.deepEqual(read('srt://h:9000'), {});
    assert.deepEqual(read('srt://h:9000?mode=caller&rcvlatency=1000'), { latencyMs: 20 });
  });

  it('says what is wrong with listener mode, short passphrases, key lengths and latencies', () => {
    assert.match(String(read('srt://h:9000?mode=listener')), /listener mode is not pulled/);
    assert.match(String(read('srt://h:9000?passphrase=short')), /10 to 79 characters/);
    assert.match(String(read('srt://h:9000?pbkeylen=20')), /16, 24 or 32/);
    assert.match(String(read('srt://h:9000?latency=-5')), /microseconds/);
  });
});
