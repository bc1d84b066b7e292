/**
 * Push-target changes made through another node (ADR 0038): two Airwave processes on one
 * PostgreSQL, ffmpeg publishing to A, every push-target mutation sent to B. A pushes the stream to
 * nginx-rtmp; B's changes reach A over LISTEN/NOTIFY. Both nodes re-read targets only once an hour
 * by themselves (AIRWAVE_PUSH_RESYNC_SECONDS), so only the event can start, stop, restart and
 * delete A's push here: a target created on B pushes, disabled on B goes idle and its connection
 * ends at the receiver, enabled on B pushes again, deleted on B ends its connection.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createScratchDatabase, postgresMissing, type ScratchDatabase } from '@airwave/server/testing/databases';
import type { TestServer } from '@airwave/server/testing/test-server';
import { type CreatedStream, createStream, registerAccount } from './support/accounts.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { graphqlOf, startNode, type TestNode } from './support/nodes.js';
import { type Tracked, waitFor } from './support/processes.js';
import { type NginxRtmpReceiver, nginxRtmpMissing, startNginxRtmp } from './support/push-receivers.js';
import { createPushTarget, deletePushTarget, updatePushTarget, waitTargets } from './support/push-targets.js';

const skip = postgresMissing || ffmpegMissing || nginxRtmpMissing;
const NODE_ENV = { AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS: 'true', AIRWAVE_PUSH_RESYNC_SECONDS: '3600' };

/** How many connections that published `name` have ended at nginx (its info log: `*<connection> disconnect`). */
function endedAt(nginx: NginxRtmpReceiver, name: string): number {
  const lines = readFileSync(join(nginx.dir, 'error.log'), 'utf8').split('\n');
  const connection = (line: string) => / (\*\d+) /.exec(line)?.[1];
  const published = new Set(lines.filter((line) => line.includes(` publish: name='${name}'`)).map(connection));
  return lines.filter((line) => / \*\d+ disconnect,/.test(line) && published.has(connection(line))).length;
}

describe('push targets changed through another node', { skip }, () => {
  let scratch: ScratchDatabase;
  let nginx: NginxRtmpReceiver;
  let a: TestNode | undefined;
  let b: TestNode | undefined;
  let onB: Pick<TestServer, 'graphql'>;
  let owner = '';
  let stream: CreatedStream;
  let publisher: Tracked | undefined;

  before(async () => {
    scratch = await createScratchDatabase();
    nginx = await startNginxRtmp();
    [a, b] = await Promise.all([
      startNode('a', '127.0.0.2', scratch.url, [], NODE_ENV),
      startNode('b', '127.0.0.3', scratch.url, [], NODE_ENV),
    ]);
    const onA = graphqlOf(a.baseUrl) as TestServer;
    onB = graphqlOf(b.baseUrl);
    owner = (await registerAccount(onA, 'push-multinode')).token;
    stream = await createStream(onA, owner, 'pushed from A, changed on B');
    publisher = publishPattern(`rtmp://127.0.0.2:${a.rtmpPort}/live/${stream.streamKey}`, {
      seconds: 300,
      bframes: false,
      width: 320,
      height: 180,
    });
  });
  after(async () => {
    await publisher?.stop();
    await b?.stop();
    await a?.stop();
    await nginx?.stop();
    await scratch?.drop();
  });

  it('A starts, stops, restarts and ends the push as B creates, disables, enables and deletes the target', async (t) => {
    const key = 'multinode_key_8841';
    const created = await createPushTarget(onB, owner, stream.id, { name: 'from B', targetUri: nginx.url(key) });
    assert.equal(created.__typename, 'PushTarget', JSON.stringify(created));
    const id = created.id ?? '';
    await waitTargets(onB, owner, stream.id, 'pushing from A', ([target]) => target?.status === 'pushing', 60_000);
    await waitFor('the publish at nginx', () => nginx.publishes(key) === 1, 30_000);

    const disabledAt = Date.now();
    assert.equal((await updatePushTarget(onB, owner, id, { isEnabled: false })).__typename, 'PushTarget');
    await waitTargets(onB, owner, stream.id, 'idle after the disable on B', ([target]) => target?.status === 'idle');
    await waitFor('the push ended at nginx', () => endedAt(nginx, key) >= 1, 30_000);
    t.diagnostic(`disabled on B → idle on A and the connection ended at nginx after ${Date.now() - disabledAt} ms`);

    assert.equal((await updatePushTarget(onB, owner, id, { isEnabled: true })).__typename, 'PushTarget');
    await waitTargets(onB, owner, stream.id, 'pushing again', ([target]) => target?.status === 'pushing', 60_000);
    await waitFor('a second publish at nginx', () => nginx.publishes(key) === 2, 30_000);

    const deletedAt = Date.now();
    assert.equal((await deletePushTarget(onB, owner, id)).__typename, 'DeleteSuccess');
    await waitFor('the second push ended at nginx', () => endedAt(nginx, key) >= 2, 30_000);
    t.diagnostic(`deleted on B → the connection ended at nginx after ${Date.now() - deletedAt} ms`);
    assert.deepEqual(await waitTargets(onB, owner, stream.id, 'no targets', (targets) => targets.length === 0), []);
  });
});
