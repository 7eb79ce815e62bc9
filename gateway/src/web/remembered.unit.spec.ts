import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { remembered } from './remembered.js';

describe('remembered', () => {
  it('asks once per period, shares the answer meanwhile, and forgets a failure at once', async () => {
    let clock = 0;
    let calls = 0;
    let fail = false;
    const get = remembered(
      async () => {
        calls += 1;
        if (fail) throw new Error('billing is down');
        return calls;
      },
      60_000,
      () => clock,
    );
    assert.equal(await get(), 1);
    clock = 59_999;
    assert.equal(await get(), 1, 'kept within the period');
    clock = 60_000;
    fail = true;
    await assert.rejects(get());
    fail = false;
    assert.equal(await get(), 3, 'a failure is asked again at once');
    assert.equal(calls, 3);
  });
});
