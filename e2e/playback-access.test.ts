/**
 * The playback gate on every protected media URL of a live RTMP publish by real ffmpeg: a matrix
 * of URLs (JSON, classic HLS playlists and segment, LL-HLS playlists, init, segment and part, the
 * MPD, progressive MP4) × tokens (none, valid, expired, unknown kid, revoked key, wrong sub,
 * tampered signature, HS256); the signed URL plays in hls.js and dash.js in Chromium and reads in
 * ffprobe; webhook allow, deny, time-out and unreachable through the same routes. Tokens are
 * signed by hand with node:crypto (the gate verifies with jose).
 */
import assert from 'node:assert/strict';
import { createHmac, createSecretKey } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { signPlaybackToken } from '@airwave/server/domain/playback-access/sign-playback-token';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { type CreatedStream, createStream, registerAccount } from './support/accounts.js';
import { chromiumMissing, launchChromium, type PlayerPages, playFor, startPlayerPages } from './support/browser.js';
import { ffmpegMissing, probeStreams, publishPattern } from './support/ffmpeg.js';
import { fetchText } from './support/http.js';
import {
  type CreatedKey,
  createSigningKey,
  type PlaybackPlane,
  playbackPlane,
  revokeSigningKey,
  setPlaybackPolicy,
  startTestHook,
  type TestHook,
} from './support/playback-access.js';
import type { Tracked } from './support/processes.js';
import { waitFor } from './support/processes.js';

const SECRET = 'media-e2e-webhook-secret-0123456789';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Every protected URL of one playback ID, without a token. */
type MediaUrls = Record<string, string>;

function withoutJwt(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('jwt');
  return parsed.toString();
}

function withToken(url: string, token: string | undefined): string {
  if (token === undefined) {
    return url;
  }
  const parsed = new URL(url);
  parsed.searchParams.set('jwt', token);
  return parsed.toString();
}

/** URI lines and URI="..." attributes of a playlist, resolved against its URL. */
function playlistUris(text: string, base: string): string[] {
  const uris: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') {
      continue;
    }
    if (!line.startsWith('#')) {
      uris.push(new URL(line, base).toString());
    }
    for (const match of line.matchAll(/URI="([^"]+)"/g)) {
      uris.push(new URL(match[1] as string, base).toString());
    }
  }
  return uris;
}

describe('the playback gate on every media URL of a live publish', { skip: ffmpegMissing }, () => {
  let server: TestServer;
  let plane: PlaybackPlane;
  let hook: TestHook;
  let ffmpeg: Tracked;
  let owner = '';
  let stream: CreatedStream;
  let key: CreatedKey;
  let revokedKey: CreatedKey;
  let valid = '';
  let play = '';

  const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}, pem = key.privateKeyPem) =>
    signPlaybackToken(
      pem,
      { sub: stream.playbackId, exp: Math.floor(Date.now() / 1000) + 3600, ...claims },
      {
        kid: key.kid,
        ...header,
      },
    );

  /** Walks the playlists with the valid token and returns every protected URL (token removed). */
  async function collectUrls(): Promise<MediaUrls> {
    const hlsMulti = withToken(`${play}/hls/index.m3u8`, valid);
    const hlsMediaUrl = playlistUris(await fetchText(hlsMulti), hlsMulti)[0];
    assert.ok(hlsMediaUrl, 'the HLS multivariant playlist lists a media playlist');
    const hlsSegment = playlistUris(await fetchText(hlsMediaUrl), hlsMediaUrl).at(-1);
    assert.ok(hlsSegment, 'the HLS media playlist lists a segment');
    const cmafMulti = withToken(`${play}/cmaf/index.m3u8`, valid);
    const cmafMediaUrl = playlistUris(await fetchText(cmafMulti), cmafMulti).find((uri) => uri.includes('video'));
    assert.ok(cmafMediaUrl, 'the LL-HLS multivariant playlist lists the video playlist');
    const media = await fetchText(cmafMediaUrl);
    const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(media)?.[1];
    const part = [...media.matchAll(/#EXT-X-PART:.*URI="([^"]+)"/g)].at(-1)?.[1];
    const segment = media
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .at(-1);
    assert.ok(init && part && segment, `the LL-HLS media playlist lists init, parts and segments:\n${media}`);
    return {
      'play JSON': `${play}`,
      'HLS multivariant': `${play}/hls/index.m3u8`,
      'HLS media playlist': withoutJwt(hlsMediaUrl),
      'HLS segment': withoutJwt(hlsSegment),
      'LL-HLS multivariant': `${play}/cmaf/index.m3u8`,
      'LL-HLS media playlist': withoutJwt(cmafMediaUrl),
      'CMAF init': withoutJwt(new URL(init, cmafMediaUrl).toString()),
      'CMAF segment': withoutJwt(new URL(segment, cmafMediaUrl).toString()),
      'CMAF part': withoutJwt(new URL(part, cmafMediaUrl).toString()),
      'DASH MPD': `${play}/cmaf/index.mpd`,
      'progressive MP4': `${play}.mp4`,
    };
  }

  /** Status and deny reason of one request; media bodies are not read past the headers. */
  async function attempt(
    url: string,
    init: RequestInit = {},
  ): Promise<{ status: number; reason?: string; auth?: string }> {
    const controller = new AbortController();
    const response = await fetch(url, { ...init, signal: controller.signal });
    if (response.status === 200) {
      controller.abort();
      return { status: 200 };
    }
    const body = (await response.json()) as { error?: { reason?: string } };
    return {
      status: response.status,
      ...(body.error?.reason ? { reason: body.error.reason } : {}),
      ...(response.headers.get('www-authenticate') ? { auth: response.headers.get('www-authenticate') ?? '' } : {}),
    };
  }

  before(async () => {
    server = await startTestServer();
    plane = playbackPlane(server);
    hook = await startTestHook(SECRET);
    owner = (await registerAccount(server, 'gate')).token;
    stream = await createStream(server, owner, 'gated');
    key = await createSigningKey(server, owner, 'viewer tokens');
    revokedKey = await createSigningKey(server, owner, 'leaked');
    const set = await setPlaybackPolicy(server, owner, stream.id, {
      type: 'JWT',
      jwt: { allowedKids: [key.kid, revokedKey.kid] },
    });
    assert.equal(set.__typename, 'Stream', JSON.stringify(set));
    assert.equal(await revokeSigningKey(server, owner, revokedKey.id), 'DeleteSuccess');
    play = `${plane.playBase}/play/${stream.playbackId}`;
    valid = sign({});
    ffmpeg = publishPattern(`rtmp://127.0.0.1:${plane.rtmpPort}/live/${stream.streamKey}`, { fps: 25, gop: 25 });
    await waitFor(
      'two HLS segments and an LL-HLS segment',
      async () => {
        const hls = await fetch(withToken(`${play}/hls/index.m3u8`, valid));
        const cmaf = await fetch(withToken(`${play}/cmaf/video.m3u8`, valid));
        if (hls.status !== 200 || cmaf.status !== 200) {
          return false;
        }
        const mediaUrl = playlistUris(await hls.text(), `${play}/hls/index.m3u8`)[0];
        const media = mediaUrl ? await (await fetch(mediaUrl)).text() : '';
        return (media.match(/#EXTINF/g) ?? []).length >= 2 && (await cmaf.text()).includes('#EXTINF');
      },
      40_000,
      250,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; ffmpeg said: ${ffmpeg.stderr()}`);
    });
  });

  after(async () => {
    await ffmpeg?.stop();
    await hook?.close();
    await server?.close();
  });

  it('answers every URL × token case with the right status and reason', async () => {
    const hsInput = `${b64({ alg: 'HS256', typ: 'JWT', kid: key.kid })}.${b64({ sub: stream.playbackId, exp: 4e9 })}`;
    const hsSignature = createHmac('sha256', createSecretKey(Buffer.from(key.publicKeyPem)))
      .update(hsInput)
      .digest();
    const [h, p, s] = valid.split('.') as [string, string, string];
    const flipped = Buffer.from(s, 'base64url');
    flipped[5] = (flipped[5] ?? 0) ^ 0x40;
    const cases: [string, string | undefined, number, string | undefined][] = [
      ['no token', undefined, 401, 'missing-token'],
      ['valid', valid, 200, undefined],
      ['expired', sign({ exp: Math.floor(Date.now() / 1000) - 3600 }), 401, 'jwt-expired'],
      ['wrong kid', sign({}, { kid: 'not-a-kid-of-this-account' }), 401, 'jwt-unknown-kid'],
      ['revoked key', sign({}, { kid: revokedKey.kid }, revokedKey.privateKeyPem), 403, 'jwt-revoked-kid'],
      ['wrong sub', sign({ sub: 'another-playback-id' }), 403, 'jwt-sub-mismatch'],
      ['tampered signature', `${h}.${p}.${flipped.toString('base64url')}`, 401, 'jwt-sig-fail'],
      ['alg HS256', `${hsInput}.${hsSignature.toString('base64url')}`, 401, 'jwt-wrong-alg'],
    ];
    const failures: string[] = [];
    for (const [name, token, status, reason] of cases) {
      const urls = await collectUrls();
      for (const [what, url] of Object.entries(urls)) {
        const got = await attempt(withToken(url, token));
        const expected = { status, ...(reason ? { reason } : {}), ...(status === 401 ? { auth: 'Bearer' } : {}) };
        if (JSON.stringify(got) !== JSON.stringify(expected)) {
          failures.push(`${what} × ${name}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  it('accepts the token as Authorization: Bearer and carries it into every URI playlists and the MPD list', async () => {
    const urls = await collectUrls();
    for (const [what, url] of Object.entries(urls)) {
      const got = await attempt(url, { headers: { authorization: `Bearer ${valid}` } });
      assert.equal(got.status, 200, `${what} with a Bearer token`);
    }
    const encoded = encodeURIComponent(valid);
    for (const playlist of ['hls/index.m3u8', 'cmaf/index.m3u8', 'cmaf/video.m3u8', 'cmaf/audio.m3u8']) {
      const url = `${play}/${playlist}`;
      const body = await (await fetch(url, { headers: { authorization: `Bearer ${valid}` } })).text();
      const uris = playlistUris(body, url);
      assert.ok(uris.length > 0, `${playlist} lists URIs`);
      for (const uri of uris) {
        assert.equal(new URL(uri).searchParams.get('jwt'), valid, `${playlist} lists ${uri} without the token`);
      }
    }
    const mpd = await fetchText(withToken(`${play}/cmaf/index.mpd`, valid));
    const templates = [...mpd.matchAll(/(?:media|initialization)="([^"]+)"/g)].map((match) => match[1] ?? '');
    assert.ok(templates.length >= 2, 'the MPD has segment templates');
    for (const template of templates) {
      assert.ok(template.includes(`jwt=${encoded}`) || template.includes(`jwt=${valid}`), `MPD template ${template}`);
    }
    const info = (await (await fetch(withToken(play, valid))).json()) as { urls: Record<string, string> };
    for (const url of Object.values(info.urls)) {
      assert.equal(new URL(url).searchParams.get('jwt'), valid, `/play JSON lists ${url} without the token`);
    }
  });

  it('ffprobe reads the signed classic HLS and LL-HLS URLs', async () => {
    for (const path of ['hls/index.m3u8', 'cmaf/index.m3u8']) {
      const streams = await probeStreams(withToken(`${play}/${path}`, valid), ['-read_intervals', '%+3']);
      const video = streams.find((entry) => entry.codec_type === 'video');
      assert.equal(video?.codec_name, 'h264', path);
      assert.equal(video?.width, 640, path);
      assert.ok(
        streams.some((entry) => entry.codec_type === 'audio' && entry.codec_name === 'aac'),
        path,
      );
    }
  });

  describe('in Chromium', { skip: chromiumMissing }, () => {
    let browser: Browser;
    let pages: PlayerPages;
    before(async () => {
      browser = await launchChromium();
      pages = await startPlayerPages();
    });
    after(async () => {
      await pages?.close();
      await browser?.close();
    });

    it('hls.js plays the one signed URL (classic HLS and LL-HLS) and dash.js plays the signed MPD', async () => {
      const runs: [string, 'hls' | 'dash', string][] = [
        ['classic HLS', 'hls', `${play}/hls/index.m3u8`],
        ['LL-HLS', 'hls', `${play}/cmaf/index.m3u8`],
        ['DASH', 'dash', `${play}/cmaf/index.mpd`],
      ];
      for (const [what, player, url] of runs) {
        const report = await playFor(browser, pages.url(player, withToken(url, valid)), 2);
        assert.deepEqual(report.errors, [], `${what}: player errors`);
        assert.ok(report.currentTime >= 2, `${what} played ${report.currentTime} s`);
        assert.equal(report.videoWidth, 640, what);
      }
      const refused = await playFor(browser, pages.url('hls', `${play}/hls/index.m3u8`), 2, 10_000);
      assert.equal(refused.currentTime, 0, 'no token, no playback');
      assert.ok(refused.errors.length > 0, 'hls.js reports the refusal');
    });
  });

  it('applies a policy change at once: PUBLIC serves without a token, JWT refuses again', async () => {
    const url = `${play}/hls/index.m3u8`;
    assert.equal((await attempt(url)).status, 401);
    await setPlaybackPolicy(server, owner, stream.id, { type: 'PUBLIC' });
    assert.equal((await attempt(url)).status, 200);
    await setPlaybackPolicy(server, owner, stream.id, { type: 'JWT', jwt: { allowedKids: [key.kid] } });
    assert.deepEqual(await attempt(url), { status: 401, reason: 'missing-token', auth: 'Bearer' });
    assert.equal((await attempt(withToken(url, valid))).status, 200);
  });

  describe('webhook policy through the same routes', () => {
    const webhook = async (path: string, timeoutMs?: number, base = hook.url) => {
      const set = await setPlaybackPolicy(server, owner, stream.id, {
        type: 'WEBHOOK',
        webhook: { url: `${base}/${path}`, secret: SECRET, ...(timeoutMs ? { timeoutMs } : {}) },
      });
      assert.equal(set.__typename, 'Stream', JSON.stringify(set));
    };

    it('allows on 200 and asks once per viewer session however many media requests follow', async () => {
      await webhook('allow');
      const before = hook.calls.length;
      const urls = await (async () => {
        const multi = `${play}/hls/index.m3u8`;
        const mediaUrl = playlistUris(await fetchText(multi), multi)[0] ?? '';
        const segment = playlistUris(await fetchText(mediaUrl), mediaUrl).at(-1) ?? '';
        return [multi, mediaUrl, segment, `${play}/cmaf/index.mpd`, `${play}/cmaf/index.m3u8`];
      })();
      for (const url of urls) {
        assert.equal((await attempt(url)).status, 200, url);
      }
      assert.equal(hook.calls.length - before, 1, 'one webhook call for one viewer session');
      const call = hook.calls[before];
      assert.ok(call);
      assert.equal(call.signatureOk, true);
      assert.equal(call.userAgent, 'Airwave-PlaybackPolicy/1');
      assert.equal(call.body.playbackId, stream.playbackId);
      assert.equal(call.body.streamId, stream.streamId);
      assert.equal(call.body.viewerIp, '127.0.0.1');
      assert.equal(call.body.protocol, 'hls');
      assert.equal(call.body.requestUrl, `/play/${stream.playbackId}/hls/index.m3u8`);
      assert.equal(typeof call.body.sessionId, 'string');
      assert.ok(Number.isFinite(Date.parse(String(call.body.timestamp))));
      assert.equal((await attempt(`${play}/hls/index.m3u8?session=second-viewer`)).status, 200);
      assert.equal(hook.calls.length - before, 2, 'another session is asked on its own');
    });

    it('tells two viewers with the same IP and user agent apart by ?session=, one hook call each', async () => {
      await webhook('allow');
      const sameBrowser = { headers: { 'user-agent': 'SameBrowser/1.0' } };
      const before = hook.calls.length;
      assert.equal((await attempt(`${play}/hls/index.m3u8?session=viewer-a`, sameBrowser)).status, 200);
      assert.equal((await attempt(`${play}/hls/index.m3u8?session=viewer-b`, sameBrowser)).status, 200);
      assert.equal(hook.calls.length - before, 2, 'each session value is asked on its own');
      assert.equal((await attempt(`${play}/hls/index.m3u8?session=viewer-a`, sameBrowser)).status, 200);
      assert.equal((await attempt(`${play}/cmaf/index.mpd?session=viewer-b`, sameBrowser)).status, 200);
      assert.equal(hook.calls.length - before, 2, 'each session keeps its own cached allow');
      const [first, second] = hook.calls.slice(before);
      assert.ok(first && second);
      assert.equal(first.body.viewerIp, '127.0.0.1');
      assert.equal(second.body.viewerIp, '127.0.0.1');
      assert.match(String(first.body.requestUrl), /session=viewer-a/);
      assert.match(String(second.body.requestUrl), /session=viewer-b/);
      assert.equal(typeof first.body.sessionId, 'string');
      assert.notEqual(first.body.sessionId, second.body.sessionId, 'the viewers get distinct session ids');
    });

    it('denies with webhook-deny-403 at once after the policy changes', async () => {
      hook.mode('deny', 'deny');
      await webhook('deny');
      assert.deepEqual(await attempt(`${play}/hls/index.m3u8`), { status: 403, reason: 'webhook-deny-403' });
      assert.deepEqual(await attempt(`${play}.mp4`), { status: 403, reason: 'webhook-deny-403' });
    });

    it('denies with webhook-timeout when the hook hangs, and webhook-network when nothing listens', async () => {
      hook.mode('hang', 'hang');
      await webhook('hang', 300);
      assert.deepEqual(await attempt(`${play}/hls/index.m3u8`), { status: 403, reason: 'webhook-timeout' });
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      await webhook('allow', 2000, `http://127.0.0.1:${port}`);
      assert.deepEqual(await attempt(`${play}/hls/index.m3u8`), { status: 403, reason: 'webhook-network' });
    });

    it('a hook hung for one viewer does not stall another viewer', async () => {
      await webhook('allow', 3000);
      let slowSettled = false;
      const slow = attempt(`${play}/hls/index.m3u8?session=slow-viewer`).finally(() => {
        slowSettled = true;
      });
      await waitFor('the slow viewer reached the hook', () =>
        hook.calls.some((call) => String(call.body.requestUrl).includes('session=slow-viewer')),
      );
      assert.equal((await attempt(`${play}/hls/index.m3u8?session=fast-viewer`)).status, 200);
      assert.equal(slowSettled, false, 'the slow viewer is still waiting on its hook call');
      assert.deepEqual(await slow, { status: 403, reason: 'webhook-timeout' });
    });
  });
});
