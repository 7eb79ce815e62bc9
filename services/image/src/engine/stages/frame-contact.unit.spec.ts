import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { maskFrom, rotatedRect } from '../testing/fixtures.js';
import { frameCheck, frameContact, sidesCut } from './frame-contact.js';

describe('frame contact', () => {
  it('passes a product with room around it', () => {
    const m = maskFrom(200, 100, rotatedRect(100, 50, 120, 60, 0));
    assert.deepEqual(sidesCut(frameContact(m)), []);
    assert.equal(frameCheck(m).pass, true);
  });

  it('flags a product cut by the frame, naming the side', () => {
    // a body in the middle and a sleeve running off the right edge (20 of 100 rows)
    const body = rotatedRect(100, 50, 80, 60, 0),
      sleeve = rotatedRect(170, 50, 80, 20, 0);
    const m = maskFrom(200, 100, (x, y) => body(x, y) || sleeve(x, y));
    const contact = frameContact(m);
    assert.equal(contact.right, 0.2);
    assert.deepEqual(sidesCut(contact), ['right']);
    const check = frameCheck(m);
    assert.equal(check.pass, false);
    assert.match(check.detail, /right 20%/);
  });

  it('ignores a speck on the edge (under 1% of the side)', () => {
    const body = rotatedRect(100, 50, 80, 60, 0);
    const m = maskFrom(200, 100, (x, y) => body(x, y) || (y < 1 && x >= 50 && x < 51));
    assert.ok(frameContact(m).top > 0);
    assert.deepEqual(sidesCut(frameContact(m)), []);
  });
});
