import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { pollUntil } from './poll';

describe('pollUntil', () => {
  it('looks until a value comes, waiting the interval between looks', async () => {
    const answers = [null, null, 'done'];
    const waits: number[] = [];
    const value = await pollUntil({
      check: async () => answers.shift() ?? null,
      intervalMs: 2000,
      timeoutMessage: 'Generation timed out',
      sleep: async (ms) => void waits.push(ms),
    });
    assert.equal(value, 'done');
    assert.deepEqual(waits, [2000, 2000]);
  });
  it('gives up at the deadline with the timeout text', async () => {
    let clock = 0;
    await assert.rejects(
      pollUntil({
        check: async () => null,
        intervalMs: 2000,
        timeoutMs: 5 * 60_000,
        timeoutMessage: 'Generation timed out',
        now: () => clock,
        sleep: async (ms) => {
          clock += ms;
        },
      }),
      /Generation timed out/,
    );
    assert.equal(clock, 5 * 60_000);
  });
  it('gives up after the number of tries', async () => {
    let looks = 0;
    await assert.rejects(
      pollUntil({
        check: async () => {
          looks++;
          return null;
        },
        intervalMs: 1000,
        tries: 30,
        timeoutMessage: 'Processing took too long. Please check your gallery for the result.',
        sleep: async () => undefined,
      }),
      /Processing took too long/,
    );
    assert.equal(looks, 30);
  });
});
