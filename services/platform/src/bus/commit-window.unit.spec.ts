import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { CommitWindow } from './kafka-bus.js';

describe('CommitWindow', () => {
  it('asks for a commit every N handled messages, with the offset after the last one', () => {
    const w = new CommitWindow(3, 60_000, () => 0);
    assert.equal(w.add(11), false);
    assert.equal(w.add(12), false);
    assert.equal(w.add(13), true);
    assert.equal(w.take(), '13');
    assert.equal(w.take(), undefined, 'nothing handled since');
    assert.equal(w.add(14), false, 'the count starts again');
  });

  it('asks for a commit once the time since the last one has passed', () => {
    let now = 1_000;
    const w = new CommitWindow(100, 500, () => now);
    assert.equal(w.add(1), false);
    now = 1_499;
    assert.equal(w.add(2), false);
    now = 1_500;
    assert.equal(w.add(3), true);
    assert.equal(w.take(), '3');
    now = 1_900;
    assert.equal(w.add(4), false, 'the clock starts again at the commit');
  });

  it('takes what was handled even below the limits (the end of a batch)', () => {
    const w = new CommitWindow(100, 60_000, () => 0);
    w.add(7);
    assert.equal(w.take(), '7');
  });
});
