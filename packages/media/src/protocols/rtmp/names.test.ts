import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParseError } from '../../errors.js';
import { encodeAmf0 } from '../../formats/amf0/amf0-encode.js';
import { amf0Object } from '../../formats/amf0/amf0-value.js';
import { parseRtmpUrl } from './client.js';
import { commandMessage, onStatusMessage, parseCommand } from './command.js';
import { MessageType } from './messages.js';
import { normaliseApp, streamKeyOf } from './stream-key.js';

describe('RTMP names and commands', () => {
  it('reads the app and stream key as ffmpeg and OBS send them', () => {
    assert.equal(normaliseApp('live'), 'live');
    assert.equal(normaliseApp('live/'), 'live');
    assert.equal(normaliseApp('live?token=1'), 'live');
    assert.equal(streamKeyOf('abc123'), 'abc123');
    assert.equal(streamKeyOf('abc123?bitrate=6000'), 'abc123');
    assert.equal(streamKeyOf(''), undefined);
    assert.equal(streamKeyOf('?x=1'), undefined);
    assert.equal(streamKeyOf('a b'), undefined);
    assert.equal(streamKeyOf('k'.repeat(257)), undefined);
  });

  it('parses rtmp:// and rtmps:// URLs', () => {
    assert.deepEqual(parseRtmpUrl('rtmp://127.0.0.1:1935/live/key?x=1'), {
      secure: false,
      host: '127.0.0.1',
      port: 1935,
      app: 'live',
      name: 'key?x=1',
      tcUrl: 'rtmp://127.0.0.1:1935/live',
    });
    assert.equal(parseRtmpUrl('rtmps://example.com/live/k').port, 443);
    assert.equal(parseRtmpUrl('rtmp://example.com/live/k').port, 1935);
    assert.throws(() => parseRtmpUrl('http://x/live/k'), /rtmp/);
    assert.throws(() => parseRtmpUrl('rtmp://x/live'), /app/);
  });

  it('decodes commands, including AMF3 command messages with an AMF0 body', () => {
    const message = commandMessage(0, 'connect', 1, amf0Object({ app: 'live' }), 'extra');
    const command = parseCommand(message);
    assert.deepEqual(
      [command.name, command.transactionId, command.object?.app, command.args],
      ['connect', 1, 'live', ['extra']],
    );
    const amf3 = { ...message, typeId: MessageType.commandAmf3, payload: Uint8Array.of(0, ...message.payload) };
    assert.equal(parseCommand(amf3).name, 'connect');
    assert.throws(() => parseCommand({ ...amf3, payload: Uint8Array.of(1, 2) }), ParseError);
    assert.throws(() => parseCommand({ ...message, payload: encodeAmf0(5, 'x') }), /command name/);
    const status = parseCommand(onStatusMessage(1, 'error', 'NetStream.Publish.BadName', 'bad'));
    assert.equal(status.name, 'onStatus');
    assert.equal(status.args.length, 1);
  });
});
