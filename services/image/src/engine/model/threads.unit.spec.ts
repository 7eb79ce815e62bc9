import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { intraOpThreads, parseCfs, parseCpuMax } from './threads.js';

describe('intra-op threads', () => {
  it('uses every CPU the process may run on when there is no quota', () => {
    assert.equal(intraOpThreads({ parallelism: 2 }), 2);
    assert.equal(intraOpThreads({ parallelism: 16, quotaCpus: undefined }), 16);
  });

  it('keeps to a container quota smaller than the CPUs it sees, rounding a part CPU up', () => {
    assert.equal(intraOpThreads({ parallelism: 64, quotaCpus: 2 }), 2);
    assert.equal(intraOpThreads({ parallelism: 64, quotaCpus: 1.5 }), 2);
    assert.equal(intraOpThreads({ parallelism: 64, quotaCpus: 0.25 }), 1);
    assert.equal(intraOpThreads({ parallelism: 4, quotaCpus: 8 }), 4, 'a quota above the CPUs changes nothing');
  });

  it('divides the CPUs among the engines a worker hosts, never below one thread', () => {
    assert.equal(intraOpThreads({ parallelism: 8, engines: 2 }), 4);
    assert.equal(intraOpThreads({ parallelism: 64, quotaCpus: 6, engines: 4 }), 1);
    assert.equal(intraOpThreads({ parallelism: 2, engines: 3 }), 1);
    assert.equal(intraOpThreads({ parallelism: 2, engines: 0 }), 2, 'no engines counts as one');
  });

  it('reads cgroup v2 and v1 quotas', () => {
    assert.equal(parseCpuMax('200000 100000\n'), 2);
    assert.equal(parseCpuMax('max 100000\n'), undefined);
    assert.equal(parseCpuMax('150000 100000'), 1.5);
    assert.equal(parseCfs('-1\n', '100000\n'), undefined);
    assert.equal(parseCfs('50000\n', '100000\n'), 0.5);
    assert.equal(parseCfs('junk', '100000'), undefined);
  });
});
