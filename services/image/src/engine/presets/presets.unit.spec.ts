import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { RawImage } from '../types.js';
import { PRESETS, resolvePreset } from './index.js';
import type { CheckInput } from './preset.js';

function canvas(w: number, h: number, bg: number, border = 0): RawImage {
  const data = Buffer.alloc(w * h * 3, bg);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (x < border || y < border || x >= w - border || y >= h - border)
        data.fill(0, (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
  return { data, width: w, height: h, channels: 3 };
}

const input = (o: Partial<CheckInput> & { pixels: RawImage }): CheckInput => ({
  width: o.pixels.width,
  height: o.pixels.height,
  format: 'jpeg',
  transparent: false,
  background: 'white',
  productBox: { left: 10, top: 10, right: o.pixels.width - 10, bottom: o.pixels.height - 10 },
  ...o,
});

describe('marketplace presets', () => {
  it('amazon passes a white, well-filled 2048 image', () => {
    const res = PRESETS.amazon.check(input({ pixels: canvas(2048, 2048, 255) }));
    assert.ok(
      res.every((c) => c.pass),
      JSON.stringify(res),
    );
  });

  it('amazon says which rule fails and why', () => {
    const res = PRESETS.amazon.check(
      input({
        pixels: canvas(1000, 1000, 236),
        background: 'grey',
        productBox: { left: 300, top: 300, right: 700, bottom: 700 },
      }),
    );
    const failed = res.filter((c) => !c.pass).map((c) => c.rule);
    assert.deepEqual(failed, ['background RGB 255', 'product fills >= 85%', 'long side >= 1600 px']);
    assert.match(res[0]!.detail, /grey/);
    assert.match(res[1]!.detail, /40\.0%/);
  });

  it('zalando wants 1:1.44 and at least 1801x2600; shopify 2048 square', () => {
    assert.ok(PRESETS.zalando.check(input({ pixels: canvas(1806, 2600, 255) })).every((c) => c.pass));
    assert.ok(PRESETS.zalando.check(input({ pixels: canvas(1600, 2304, 255) })).some((c) => !c.pass));
    assert.ok(!PRESETS.shopify.check(input({ pixels: canvas(2048, 1600, 255) }))[0]!.pass);
  });

  it('ebay refuses a border', () => {
    const res = PRESETS.ebay.check(input({ pixels: canvas(1600, 1600, 255, 3) }));
    assert.equal(res.find((c) => c.rule === 'no border')!.pass, false);
    assert.equal(
      PRESETS.ebay.check(input({ pixels: canvas(1600, 1600, 255) })).find((c) => c.rule === 'no border')!.pass,
      true,
    );
  });

  it('resolves depop to the vinted rules and refuses unknown names', () => {
    assert.equal(resolvePreset('depop')!.id, 'vinted');
    assert.equal(resolvePreset(undefined), undefined);
    assert.throws(() => resolvePreset('walmart'), /unknown preset/);
  });
});
