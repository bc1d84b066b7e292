import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { cpuTicks, processTree, rssBytes, sampleWindow } from './proc-stats.js';

test('processTree lists a child of this process, and sampleWindow sees its CPU', async () => {
  const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 3000; while (Date.now() < end) {}']);
  try {
    const pid = child.pid ?? assert.fail('no pid');
    assert.ok(processTree(process.pid).includes(pid));
    assert.ok(rssBytes(pid) > 0);
    const window = await sampleWindow({ busy: () => [pid], none: () => [] }, 1);
    assert.ok((window.percent.busy ?? 0) > 0, `busy child used ${window.percent.busy} %`);
    assert.equal(window.percent.none, 0);
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  assert.equal(cpuTicks(child.pid ?? 0), undefined);
});
