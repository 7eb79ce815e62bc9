import { describe, expect, it } from 'vitest';
import { FreeSizeThresholdModel, maskFrom, ThresholdModel } from '../testing/fixtures.js';
import type { RawImage } from '../types.js';
import { cutsProduct, FIRST_PASS_SIZE, productWindow, segmentCropFirst } from './crop-first.js';
import { boundingBox, threshold } from './mask-ops.js';
import { segment } from './segment.js';

/** A white photo with dark rectangles (what ThresholdModel "segments"). */
function photo(width: number, height: number, rects: [number, number, number, number][]): RawImage {
  const data = Buffer.alloc(width * height * 3, 255);
  for (const [l, t, r, b] of rects) for (let y = t; y < b; y++) data.fill(20, (y * width + l) * 3, (y * width + r) * 3);
  return { data, width, height, channels: 3 };
}

describe('productWindow', () => {
  it("is the product's box in image coordinates with a margin on every side", () => {
    // 100 x 100 first pass over a 1000 x 500 photo: product at x 20-40, y 30-60
    const first = maskFrom(100, 100, (x, y) => x > 20 && x < 40 && y > 30 && y < 60);
    const w = productWindow(first, 1000, 500, { margin: 0.1 })!;
    // box in the image: x 200-400, y 150-300; margin 0.1 x 200 plus one first-pass pixel (10)
    expect(w).toEqual({ left: 170, top: 120, right: 430, bottom: 330 });
  });

  it('stays inside the frame', () => {
    const first = maskFrom(100, 100, (x, y) => x < 10 && y < 10);
    const w = productWindow(first, 800, 600)!;
    expect(w.left).toBe(0);
    expect(w.top).toBe(0);
    expect(w.right).toBeLessThan(800);
  });

  it('leaves out specks the cleanup would drop', () => {
    const first = maskFrom(100, 100, (x, y) => (x > 40 && x < 60 && y > 40 && y < 60) || (x > 98 && y > 98));
    const w = productWindow(first, 1000, 1000)!;
    expect(w.right).toBeLessThan(800);
    expect(w.bottom).toBeLessThan(800);
  });

  it('is null when there is no product, or the window would cover most of the frame', () => {
    expect(
      productWindow(
        maskFrom(100, 100, () => false),
        1000,
        1000,
      ),
    ).toBeNull();
    expect(
      productWindow(
        maskFrom(100, 100, (x, y) => x > 10 && x < 90 && y > 10 && y < 90),
        1000,
        1000,
      ),
    ).toBeNull();
  });
});

describe('segmentCropFirst', () => {
  it("runs the full pass on the product's window and places its mask where the product is", async () => {
    const sides: number[] = [];
    const image = photo(1200, 900, [[120, 90, 360, 330]]);
    const { mask, window } = await segmentCropFirst(image, new FreeSizeThresholdModel(640, sides));
    expect(sides).toEqual([FIRST_PASS_SIZE, 640]);
    expect(window).not.toBeNull();
    expect(window!.left).toBeLessThanOrEqual(120);
    expect(window!.right).toBeGreaterThanOrEqual(360);
    expect(window!.right).toBeLessThan(600);
    // the frame's mask as segment() makes it: long side 1024
    expect([mask.width, mask.height]).toEqual([1024, 768]);
    const b = boundingBox(threshold(mask, 128))!;
    const k = 1024 / 1200;
    expect(Math.abs(b.left - 120 * k)).toBeLessThanOrEqual(2);
    expect(Math.abs(b.right - 360 * k)).toBeLessThanOrEqual(2);
    expect(Math.abs(b.top - 90 * k)).toBeLessThanOrEqual(2);
    expect(Math.abs(b.bottom - 330 * k)).toBeLessThanOrEqual(2);
  });

  it('segments the whole frame when the product fills most of it', async () => {
    const sides: number[] = [];
    const image = photo(800, 600, [[40, 30, 760, 570]]);
    const model = new FreeSizeThresholdModel(640, sides);
    const { mask, window } = await segmentCropFirst(image, model);
    expect(window).toBeNull();
    expect(sides).toEqual([FIRST_PASS_SIZE, 640]);
    expect(mask).toEqual(await segment(image, new FreeSizeThresholdModel(640)));
  });

  it('segments the whole frame with a model whose input size is fixed', async () => {
    const model = new ThresholdModel();
    const { window } = await segmentCropFirst(photo(800, 600, [[40, 30, 200, 200]]), model);
    expect(window).toBeNull();
    expect(model.calls).toBe(1);
  });
});

describe('cutsProduct', () => {
  const part = maskFrom(100, 80, (x, y) => x > 10 && x < 90 && y > 10 && y < 79.9);
  it('is true when the product reaches a side of the window that lies inside the frame', () => {
    expect(cutsProduct(part, { left: 50, top: 50, right: 150, bottom: 130 }, 1000, 1000)).toBe(true);
  });
  it("is false when that side is the frame's own edge, or the product stays inside", () => {
    expect(cutsProduct(part, { left: 50, top: 920, right: 150, bottom: 1000 }, 1000, 1000)).toBe(false);
    const inside = maskFrom(100, 80, (x, y) => x > 10 && x < 90 && y > 10 && y < 70);
    expect(cutsProduct(inside, { left: 50, top: 50, right: 150, bottom: 130 }, 1000, 1000)).toBe(false);
  });
});
