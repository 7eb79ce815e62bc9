import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { RawImage } from '../types.js';
import { applyGains, estimateGains } from './white-balance.js';

/** A neutral scene: greys of many levels with some coloured patches that average out. */
function neutralScene(): RawImage {
  const w = 64,
    h = 64,
    data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const k = (y * w + x) * 3,
        v = 60 + ((x * 3 + y * 2) % 160);
      const tint = ((x >> 3) + (y >> 3)) % 3;
      data[k] = v + (tint === 0 ? 20 : tint === 1 ? -10 : -10);
      data[k + 1] = v + (tint === 1 ? 20 : tint === 2 ? -10 : -10);
      data[k + 2] = v + (tint === 2 ? 20 : tint === 0 ? -10 : -10);
    }
  return { data, width: w, height: h, channels: 3 };
}

describe('white balance', () => {
  it('leaves a neutral scene nearly untouched', () => {
    const g = estimateGains(neutralScene());
    for (const v of g) assert.ok(Math.abs(v - 1) < 0.03, String(g));
  });

  it('removes a known warm colour cast', () => {
    const scene = neutralScene();
    const cast = applyGains(scene, [1.12, 1, 0.88]);
    const gains = estimateGains(cast);
    const fixed = applyGains(cast, gains);
    const mean = (img: RawImage, c: number) => {
      let s = 0;
      for (let i = c; i < img.data.length; i += 3) s += img.data[i]!;
      return s / (img.data.length / 3);
    };
    const before = mean(cast, 0) / mean(cast, 2),
      after = mean(fixed, 0) / mean(fixed, 2);
    const truth = mean(scene, 0) / mean(scene, 2);
    assert.ok(Math.abs(before - truth) > 0.2, `cast present: ${before} vs ${truth}`);
    assert.ok(Math.abs(after - truth) < 0.04, `cast removed: ${after} vs ${truth}`);
  });

  it('leaves a flat single-colour scene alone: no edges to judge by', () => {
    const data = Buffer.alloc(32 * 32 * 3);
    for (let i = 0; i < data.length; i += 3) {
      data[i] = 200;
      data[i + 1] = 40;
      data[i + 2] = 40;
    }
    assert.deepEqual(estimateGains({ data, width: 32, height: 32, channels: 3 }), [1, 1, 1]);
  });

  it('clamps the correction of an extreme cast to 20% per channel', () => {
    const cast = applyGains(neutralScene(), [1, 1, 0.4]);
    const gains = estimateGains(cast);
    assert.ok(gains[2] / gains[0] <= 1.2 * 1.2 + 1e-9, String(gains));
    assert.ok(gains[2] > gains[0], 'still corrects towards neutral');
  });
});
