import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { FreeSizeThresholdModel, maskFrom, ThresholdModel } from '../testing/fixtures.js';
import type { RawImage } from '../types.js';
import { threshold } from './mask-ops.js';
import { SECOND_LOOK_SIZE, segmentWithSecondLook, sureShare } from './second-look.js';

/** A white photo with a dark product (what the threshold models "segment"). */
function photo(width: number, height: number): RawImage {
  const data = Buffer.alloc(width * height * 3, 255);
  for (let y = 100; y < 300; y++) data.fill(20, (y * width + 150) * 3, (y * width + 450) * 3);
  return { data, width, height, channels: 3 };
}

/**
 * The threshold model, but at sides under SECOND_LOOK_SIZE only 60% sure of the product (or
 * `belowSure` as given): a model that reads the photo only at a larger side.
 */
class SureOnlyLarge extends FreeSizeThresholdModel {
  constructor(
    side: number,
    sides: number[],
    private readonly belowSure = 0.6,
  ) {
    super(side, sides);
  }
  override async run(input: Float32Array): Promise<Float32Array> {
    const out = await super.run(input);
    if (this.inputSize < SECOND_LOOK_SIZE) for (let i = 0; i < out.length; i++) out[i]! *= this.belowSure;
    return out;
  }
  override atSize(side: number): SureOnlyLarge {
    return new SureOnlyLarge(side, this.sides, this.belowSure);
  }
}

describe('a second look when the model is unsure of its product', () => {
  it('reads the share of the product the model is sure of', () => {
    const prob = maskFrom(10, 10, (x) => x < 5);
    assert.equal(sureShare(prob), 1);
    for (let i = 0; i < 50; i++) if (prob.data[i]) prob.data[i] = 150; // its top half only half sure
    assert.equal(sureShare(prob), 0.5);
    assert.equal(sureShare(maskFrom(10, 10, () => false)), 1); // nothing called product: nothing to doubt
  });

  it('looks again at the larger side and keeps the surer answer', async () => {
    const sides: number[] = [];
    const seg = await segmentWithSecondLook(photo(600, 400), new SureOnlyLarge(576, sides));
    assert.deepEqual(sides, [576, SECOND_LOOK_SIZE]);
    assert.equal(seg.secondLook, true);
    assert.ok(sureShare(seg) > 0.9, `sure share ${sureShare(seg)}`);
    assert.ok(threshold(seg).data.some((v) => v > 0));
  });

  it('does not look again when the model is sure, or cannot run at another side', async () => {
    const sides: number[] = [];
    const sure = await segmentWithSecondLook(photo(600, 400), new FreeSizeThresholdModel(576, sides));
    assert.deepEqual(sides, [576]);
    assert.equal(sure.secondLook, false);
    const fixed = new ThresholdModel(); // no atSize: a model exported at one size
    const once = await segmentWithSecondLook(photo(600, 400), Object.assign(fixed, { run: fixed.run }));
    assert.equal(once.secondLook, false);
    assert.equal(fixed.calls, 1);
  });

  it('keeps the first answer when the second is no surer', async () => {
    const sides: number[] = [];
    // unsure at every side: the threshold model scaled down at the large side too
    class UnsureEverywhere extends FreeSizeThresholdModel {
      override async run(input: Float32Array): Promise<Float32Array> {
        const out = await super.run(input);
        for (let i = 0; i < out.length; i++) out[i]! *= 0.6;
        return out;
      }
      override atSize(side: number): UnsureEverywhere {
        return new UnsureEverywhere(side, this.sides);
      }
    }
    const seg = await segmentWithSecondLook(photo(600, 400), new UnsureEverywhere(576, sides));
    assert.deepEqual(sides, [576, SECOND_LOOK_SIZE]);
    assert.equal(seg.secondLook, true);
    assert.equal(sureShare(seg), 0);
  });
});
