import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { cpuTicks, machineCell, processTree, rssBytes, sampleWindow, threadCpuNs } from './proc-stats.js';

test('processTree lists a child of this process, and sampleWindow sees its CPU', async () => {
  const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 3000; while (Date.now() < end) {}']);
  try {
    const pid = child.pid ?? assert.fail('no pid');
    assert.ok(processTree(process.pid).includes(pid));
    assert.ok(rssBytes(pid) > 0);
    const window = await sampleWindow({ busy: () => [pid], none: () => [] }, 1);
    assert.ok((window.percent.busy ?? 0) > 0, `busy child used ${window.percent.busy} %`);
    assert.equal(window.percent.none, 0);
    assert.ok(window.machinePercent >= (window.percent.busy ?? 0) * 0.5, `machine ${window.machinePercent} %`);
    assert.ok(
      window.stealPercent >= 0 && window.stealPercent <= window.machinePercent,
      `stolen ${window.stealPercent} % of ${window.machinePercent} %`,
    );
    assert.match(machineCell(window, 1.25), /^\d+ \(\d+\) \/ 1\.3$/);
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  assert.equal(cpuTicks(child.pid ?? 0), undefined);
});

test('threadCpuNs reads every thread of this process, and its main thread runs on', () => {
  const main = `${process.pid}/${process.pid}`;
  const first = threadCpuNs([process.pid]);
  const end = Date.now() + 50;
  while (Date.now() < end) {
    // Spin: the main thread's run time grows.
  }
  const second = threadCpuNs([process.pid]);
  assert.ok(first.size > 1, 'Node runs several threads');
  assert.ok((second.get(main) ?? 0) > (first.get(main) ?? 0));
  assert.equal(threadCpuNs([2 ** 30]).size, 0);
});
