import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { luminance, toModelInput } from './segment.js';

describe('segment', () => {
  it('takes luminance with Rec. 601 weights, skipping alpha', () => {
    const rgba = Uint8Array.from([255, 0, 0, 9, 0, 255, 0, 9, 0, 0, 255, 9, 200, 200, 200, 0]);
    assert.deepEqual(Array.from(luminance(rgba, 4)), [77, 149, 29, 200]);
    assert.deepEqual(Array.from(luminance(Uint8Array.from([10, 20, 30, 255, 255, 255]), 3)), [18, 255]);
  });

  it('normalises pixels into planar RGB as ISNet was exported', () => {
    const input = toModelInput(Buffer.from([128, 0, 255, 64, 192, 128]), 1); // one pixel used: a 1x1 square
    assert.deepEqual(Array.from(input), [0, -0.5, 127 / 256]);
  });
});
