import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { maskFrom, rotatedRect } from '../testing/fixtures.js';
import {
  cleanMask,
  fillHoles,
  isSkin,
  keepProductComponents,
  removeHands,
  removeHangerHooks,
  trimNarrowTop,
  trimUnsureRegions,
} from './mask-cleanup.js';
import { threshold } from './mask-ops.js';
import { area, boundingBox, components } from './mask-ops.js';

const at = (m: { data: Uint8Array; width: number }, x: number, y: number) => m.data[y * m.width + x]!;

describe('mask cleanup', () => {
  it('keeps both blobs of a pair and drops specks', () => {
    const left = rotatedRect(80, 100, 90, 60, 0),
      right = rotatedRect(220, 105, 100, 55, 0),
      speck = rotatedRect(150, 20, 4, 4, 0);
    const m = maskFrom(300, 200, (x, y) => left(x, y) || right(x, y) || speck(x, y));
    const kept = keepProductComponents(m)!;
    assert.equal(kept.parts, 2);
    assert.equal(components(kept.mask).count, 2);
    assert.equal(at(kept.mask, 150, 20), 0, 'speck removed');
    assert.equal(at(kept.mask, 80, 100), 255);
    assert.equal(at(kept.mask, 220, 105), 255);
  });

  it('fills a hole inside the product', () => {
    const body = rotatedRect(100, 100, 120, 120, 0),
      hole = rotatedRect(100, 100, 10, 10, 0);
    const m = maskFrom(200, 200, (x, y) => body(x, y) && !hole(x, y));
    assert.equal(at(m, 100, 100), 0);
    const filled = fillHoles(m);
    assert.equal(at(filled, 100, 100), 255);
    assert.equal(area(filled), 120 * 120);
  });

  it('keeps a large opening the model was sure about (a bag handle loop)', () => {
    const ring = rotatedRect(100, 100, 150, 150, 0),
      opening = rotatedRect(100, 100, 90, 90, 0);
    const m = maskFrom(200, 200, (x, y) => ring(x, y) && !opening(x, y));
    assert.equal(at(fillHoles(m, m), 100, 100), 0);
  });

  it('removes a hanger hook above a garment', () => {
    const body = rotatedRect(150, 190, 200, 180, 0),
      hook = rotatedRect(150, 70, 8, 70, 0);
    const m = maskFrom(300, 300, (x, y) => body(x, y) || hook(x, y));
    const out = removeHangerHooks(m);
    assert.equal(at(out, 150, 60), 0, 'hook gone');
    assert.equal(boundingBox(out)!.top, 100, 'garment top intact');
    assert.equal(at(out, 60, 110), 255, 'shoulder corner intact');
  });

  it('removes the bar and hook of a clip hanger above trousers', () => {
    const legs = rotatedRect(150, 200, 160, 160, 0),
      bar = rotatedRect(150, 108, 200, 6, 0),
      hook = rotatedRect(150, 80, 6, 50, 0);
    const m = maskFrom(300, 300, (x, y) => legs(x, y) || bar(x, y) || hook(x, y));
    const out = removeHangerHooks(m);
    assert.equal(at(out, 150, 70), 0, 'hook gone');
    assert.equal(at(out, 40, 108), 0, 'bar gone');
    assert.equal(boundingBox(out)!.top, 120, 'waistband intact');
  });

  it('removes the clips of a skirt hanger at the waistband corners only when asked (bottoms)', () => {
    const skirt = rotatedRect(150, 200, 160, 160, 0),
      left = rotatedRect(80, 110, 8, 22, 0),
      right = rotatedRect(220, 110, 8, 22, 0);
    const m = maskFrom(300, 300, (x, y) => skirt(x, y) || left(x, y) || right(x, y));
    const hooksOnly = removeHangerHooks(m);
    assert.equal(at(hooksOnly, 80, 104), 255, 'off-centre parts stay for tops (they may be straps)');
    const clipsToo = removeHangerHooks(m, true);
    assert.equal(at(clipsToo, 80, 104), 0, 'left clip gone');
    assert.equal(at(clipsToo, 220, 104), 0, 'right clip gone');
    assert.equal(boundingBox(clipsToo)!.top, 120, 'waistband intact');
  });

  it("keeps the top corner of trousers lying turned, even where clips are looked for (the opening's rounded tip is no clip)", () => {
    // trousers 160 x 200 whose waistband rises towards its right corner (gathered elastic), turned
    // the other way: that corner stands above the body, and the opening rounds its tip off
    const trousers = (rise: number, deg: number) => {
      const t = (deg * Math.PI) / 180,
        c = Math.cos(t),
        s = Math.sin(t);
      return (x: number, y: number) => {
        const u = (x - 160) * c + (y - 180) * s,
          v = -(x - 160) * s + (y - 180) * c;
        return Math.abs(u) <= 80 && v <= 100 && v >= -100 - (rise * (u + 80)) / 160;
      };
    };
    for (const rise of [10, 20, 30])
      for (const deg of [-12, -8]) {
        const turned = maskFrom(320, 340, trousers(rise, deg));
        const out = removeHangerHooks(turned, true);
        assert.deepEqual(out.data, turned.data, `waistband rising ${rise} px, turned ${deg}°: kept whole`);
      }
  });

  it('keeps the hood of a hoodie: narrow through the whole top fifth, unlike a hook', () => {
    // body 200 x 160 from y = 140; hood 50 wide (25% of the body) rising 60 px above it, a
    // quarter of the garment's height: the narrow rows reach past the top fifth (44 px)
    const body = rotatedRect(150, 220, 200, 160, 0),
      hood = rotatedRect(150, 115, 50, 60, 0);
    const m = maskFrom(300, 320, (x, y) => body(x, y) || hood(x, y));
    const kept = { data: m.data.slice(), width: m.width, height: m.height };
    trimNarrowTop(kept);
    assert.deepEqual(kept.data, m.data, 'hood kept');
    // the same garment with a hook 20 px tall (under a fifth of the height): the hook goes
    const hook = rotatedRect(150, 130, 30, 20, 0);
    const hooked = maskFrom(300, 320, (x, y) => body(x, y) || hook(x, y));
    trimNarrowTop(hooked);
    assert.equal(at(hooked, 150, 125), 0, 'hook gone');
    assert.equal(boundingBox(hooked)!.top, 140, 'garment top intact');
  });

  it('keeps the top corner of a garment lying a little turned: it widens gradually, unlike a hook', () => {
    // a 200 x 180 garment turned 12 degrees: its top rows are a corner, under 30% of the widest row
    const turned = maskFrom(320, 320, rotatedRect(160, 170, 200, 180, 12));
    const corner = { data: turned.data.slice(), width: turned.width, height: turned.height };
    trimNarrowTop(corner);
    assert.deepEqual(corner.data, turned.data, 'corner kept');
  });

  it("trims a hanger's sloped arms with its hook, where a flat garment's corner of the same shape stays", () => {
    // a hook, then the hanger's arms widening like shoulders (a ramp), then the garment
    const body = rotatedRect(150, 220, 200, 160, 0),
      hook = rotatedRect(150, 95, 6, 40, 0),
      arms = (x: number, y: number) => y >= 115 && y < 140 && Math.abs(x - 150) <= 3 + (y - 115) * 2.4;
    const hung = maskFrom(300, 320, (x, y) => body(x, y) || hook(x, y) || arms(x, y));
    const out = removeHangerHooks(hung);
    assert.equal(at(out, 150, 100), 0, 'hook gone');
    assert.equal(at(out, 150, 118), 0, "the arms' narrow top gone");
    assert.equal(boundingBox(out)!.left, 50, 'garment intact');
    // without the hook the same ramp is a garment's own top: kept
    const flat = maskFrom(300, 320, (x, y) => body(x, y) || arms(x, y));
    const kept = { data: flat.data.slice(), width: flat.width, height: flat.height };
    trimNarrowTop(kept);
    assert.deepEqual(kept.data, flat.data, 'ramp kept');
  });

  it('keeps the straps of a camisole (thin, but off-centre)', () => {
    const body = rotatedRect(150, 200, 160, 160, 0),
      left = rotatedRect(100, 90, 6, 60, 0),
      right = rotatedRect(200, 90, 6, 60, 0);
    const m = maskFrom(300, 300, (x, y) => body(x, y) || left(x, y) || right(x, y));
    const out = removeHangerHooks(m);
    assert.equal(at(out, 100, 75), 255, 'left strap kept');
    assert.equal(at(out, 200, 75), 255, 'right strap kept');
  });

  it('drops a broad half-sure region attached to a sure garment (bedding), keeps the soft edge', () => {
    // garment: sure (255) with a 2 px soft rim (170); blanket fold to its right: half sure (160).
    // The band kept around sure pixels is 0.4% of the long side, at least 2 px: 2 px here.
    const garment = rotatedRect(100, 100, 120, 140, 0),
      rim = rotatedRect(100, 100, 124, 144, 0),
      fold = rotatedRect(190, 120, 60, 100, 0);
    const prob = { data: new Uint8Array(200 * 200), width: 200, height: 200 };
    for (let y = 0; y < 200; y++)
      for (let x = 0; x < 200; x++) {
        prob.data[y * 200 + x] = garment(x + 0.5, y + 0.5)
          ? 255
          : rim(x + 0.5, y + 0.5)
            ? 170
            : fold(x + 0.5, y + 0.5)
              ? 160
              : 0;
      }
    const out = trimUnsureRegions(prob, threshold(prob, 128));
    assert.equal(at(out, 190, 120), 0, 'the fold is gone');
    assert.equal(at(out, 100 - 62, 100), 255, 'the soft rim stays');
    assert.equal(at(out, 100, 100 + 71), 255);
    assert.equal(at(out, 100, 100), 255);
    assert.equal(at(out, 161, 120), 255, 'a band as wide as a soft edge stays where the fold touches');
    assert.equal(at(out, 163, 120), 0);
  });

  it("keeps a half-sure part the product encloses: a jacket's lining between its fronts", () => {
    // a jacket: sure cloth on the left, right and top of a half-sure lining that opens at the hem
    const prob = { data: new Uint8Array(200 * 200), width: 200, height: 200 };
    for (let y = 20; y < 180; y++)
      for (let x = 40; x < 160; x++) {
        const lining = x >= 80 && x < 120 && y >= 60;
        prob.data[y * 200 + x] = lining ? 160 : 255;
      }
    const out = trimUnsureRegions(prob, threshold(prob, 128));
    assert.equal(at(out, 100, 120), 255, 'the lining stays');
    assert.equal(at(out, 100, 178), 255, 'down to the hem');
    // the same lining with the cloth on one side only is a fold of bedding beside a garment
    for (let y = 20; y < 180; y++) for (let x = 120; x < 160; x++) prob.data[y * 200 + x] = 0;
    for (let y = 20; y < 60; y++) for (let x = 80; x < 120; x++) prob.data[y * 200 + x] = 0;
    for (let y = 20; y < 180; y++) for (let x = 0; x < 40; x++) prob.data[y * 200 + x] = 255; // still mostly sure
    const beside = trimUnsureRegions(prob, threshold(prob, 128));
    assert.equal(at(beside, 100, 120), 0, 'a part bordered by the product along one side only goes');
  });

  it('leaves a mask alone when the model is unsure of the product itself (white on white)', () => {
    const prob = maskFrom(100, 100, rotatedRect(50, 50, 60, 60, 0));
    for (let p = 0; p < prob.data.length; p++) if (prob.data[p]) prob.data[p] = p % 3 === 0 ? 255 : 170;
    const bin = threshold(prob, 128);
    assert.deepEqual(trimUnsureRegions(prob, bin), bin);
  });

  it('feathers the edge without a halo and returns null for an empty mask', () => {
    const prob = maskFrom(100, 100, rotatedRect(50, 50, 60, 60, 0));
    const clean = cleanMask(prob, { removeHanger: false })!;
    assert.equal(at(clean.alpha, 50, 50), 255);
    assert.equal(at(clean.alpha, 5, 5), 0);
    assert.equal(at(clean.alpha, 18, 50), 0, 'nothing outside the product edge');
    assert.equal(
      cleanMask(
        maskFrom(100, 100, () => false),
        { removeHanger: false },
      ),
      null,
    );
  });
});

describe('props that touch the product: a clothes rail, a hand', () => {
  it('removes a clothes rail behind a top: a bar of its own across the photo, too thick for the hook rule, and the hook below it', () => {
    // the bar is thicker than the hook rule's opening takes away (2 x 3% of the garment's size),
    // so before the rail rule it stayed, and the hook below it with it
    const body = rotatedRect(150, 190, 200, 180, 0),
      hook = rotatedRect(150, 80, 8, 40, 0),
      bar = rotatedRect(150, 42, 300, 16, 0);
    const m = maskFrom(300, 300, (x, y) => body(x, y) || hook(x, y) || bar(x, y));
    assert.equal(components(m).count, 2, 'the bar is a part of its own');
    const out = removeHangerHooks(m);
    assert.equal(at(out, 20, 42), 0, 'bar gone');
    assert.equal(at(out, 150, 75), 0, 'hook gone');
    assert.equal(boundingBox(out)!.top, 100, 'garment top intact');
  });

  it("removes a clothes rack's posts and base round trousers: a sparse part of its own that runs into the photo's edge", () => {
    const legs = rotatedRect(150, 150, 100, 200, 0),
      left = rotatedRect(30, 150, 8, 280, 0),
      right = rotatedRect(270, 150, 8, 280, 0),
      base = rotatedRect(150, 290, 248, 20, 0); // its lowest row on the photo's bottom edge
    const m = maskFrom(300, 300, (x, y) => legs(x, y) || left(x, y) || right(x, y) || base(x, y));
    const out = removeHangerHooks(m, true);
    assert.equal(at(out, 30, 100), 0, 'post gone');
    assert.equal(at(out, 150, 295), 0, 'base gone');
    assert.equal(area(out), 100 * 200, 'the trousers whole');
  });

  it('keeps a long bar that stays inside the photo: not a rail', () => {
    const body = rotatedRect(150, 190, 200, 180, 0),
      bar = rotatedRect(150, 42, 260, 16, 0);
    const m = maskFrom(300, 300, (x, y) => body(x, y) || bar(x, y));
    assert.equal(at(removeHangerHooks(m), 40, 42), 255);
  });

  it('tells skin from the colours around it', () => {
    const colours = (list: [number, number, number][]) => list;
    for (const [r, g, b] of colours([
      [222, 170, 138],
      [170, 120, 90],
      [240, 200, 180],
    ]))
      assert.equal(isSkin(r, g, b), true, `${[r, g, b]}`);
    for (const [r, g, b] of colours([
      [240, 240, 240],
      [200, 30, 30],
      [120, 40, 40], // a red product's shadow: skin's chroma bounds, not its hue
      [40, 60, 160],
      [128, 128, 128],
      [20, 15, 12],
      [60, 140, 60],
    ]))
      assert.equal(isSkin(r, g, b), false, `${[r, g, b]}`);
  });

  /** A photo of `w` x `h`, grey, with coloured shapes painted in order. */
  function photoOf(w: number, h: number, shapes: [(x: number, y: number) => boolean, [number, number, number]][]) {
    const rgb = new Uint8Array(w * h * 3).fill(128);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        for (const [inside, colour] of shapes) if (inside(x + 0.5, y + 0.5)) rgb.set(colour, (y * w + x) * 3);
    return rgb;
  }
  const SKIN: [number, number, number] = [222, 170, 138];

  it('takes out a hand that comes into the photo over the product, with its edge', () => {
    const product = rotatedRect(100, 90, 100, 100, 0); // 50-150 x 40-140
    const hand = rotatedRect(30, 165, 60, 70, 0); // 0-60 x 130-200: from the lower left corner
    const photo = photoOf(200, 200, [
      [product, [40, 60, 160]],
      [hand, SKIN],
    ]);
    const bin = maskFrom(200, 200, (x, y) => product(x, y) || hand(x, y));
    const out = removeHands(bin, photo);
    assert.equal(at(out, 10, 190), 0, 'the wrist at the frame');
    assert.equal(at(out, 55, 135), 0, 'the fingers over the product');
    assert.equal(at(out, 60, 135), 0, "the hand's rim");
    assert.equal(at(out, 100, 90), 255, 'the product');
    assert.equal(at(out, 145, 135), 255, "the product's far corner");
  });

  it('keeps a skin-toned product at the edge (it is most of the mask) and a skin-toned patch inside one', () => {
    const beige = rotatedRect(60, 100, 120, 100, 0); // 0-120: runs into the left edge
    const tan = photoOf(200, 200, [[beige, SKIN]]);
    const bin = maskFrom(200, 200, beige);
    assert.deepEqual(removeHands(bin, tan).data, bin.data);
    const product = rotatedRect(100, 100, 120, 120, 0),
      patch = rotatedRect(100, 100, 30, 30, 0);
    const patched = photoOf(200, 200, [
      [product, [40, 60, 160]],
      [patch, SKIN],
    ]);
    const inside = maskFrom(200, 200, product);
    assert.deepEqual(removeHands(inside, patched).data, inside.data);
  });

  it('cleanMask takes the hand out when given the photo, and not without it', () => {
    const product = rotatedRect(100, 90, 100, 100, 0);
    const hand = rotatedRect(30, 165, 60, 70, 0);
    const photo = photoOf(200, 200, [
      [product, [40, 60, 160]],
      [hand, SKIN],
    ]);
    const prob = maskFrom(200, 200, (x, y) => product(x, y) || hand(x, y));
    assert.equal(at(cleanMask(prob, { removeHanger: false, photo })!.binary, 10, 190), 0);
    assert.equal(at(cleanMask(prob, { removeHanger: false })!.binary, 10, 190), 255);
  });
});

describe("the product's own parts that the model parted from it: a cord's end past the hem", () => {
  // a garment (200 x 160) and, 20 px below its hem, what lies there, each with the model's probability
  const W = 400,
    H = 400;
  const body = rotatedRect(200, 150, 200, 160, 0);
  const below = (inside: (x: number, y: number) => boolean, probability: number) => {
    const prob = maskFrom(W, H, (x, y) => body(x, y));
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (inside(x, y)) prob.data[y * W + x] = probability;
    return cleanMask(prob, { removeHanger: false })!.binary;
  };
  const cord = rotatedRect(200, 290, 8, 80, 0); // upright, pointing at the hem 20 px above it

  it('puts back a cord the model is fairly sure of whose line meets the product', () => {
    assert.equal(at(below(cord, 230), 200, 300), 255);
    // the dropped part without the rule: keeping the product's components alone loses it
    const prob = maskFrom(W, H, (x, y) => body(x, y) || cord(x, y));
    assert.equal(at(keepProductComponents(threshold(prob))!.mask, 200, 300), 0);
  });

  it('leaves out a cord the model only half believes (floor texture), and one lying along the hem', () => {
    assert.equal(at(below(cord, 150), 200, 300), 0);
    const along = rotatedRect(200, 254, 80, 8, 0);
    assert.equal(at(below(along, 255), 200, 254), 0);
  });

  it('leaves out a sure blob that is no cord unless it all but touches the product', () => {
    // on a 1000 px mask, where ATTACH_GAP is 3 px: a garment's hem at row 599
    const side = 1000;
    const garment = rotatedRect(500, 400, 500, 400, 0);
    const withBlob = (top: number) => {
      const prob = maskFrom(side, side, (x, y) => garment(x, y));
      for (let y = top; y < top + 12; y++) for (let x = 494; x < 506; x++) prob.data[y * side + x] = 255;
      return cleanMask(prob, { removeHanger: false })!.binary;
    };
    assert.equal(at(withBlob(630), 500, 635), 0, 'a blob 30 px off the hem');
    // two rows of floor between: the product's own, parted by the threshold
    assert.equal(at(withBlob(602), 500, 605), 255, 'a blob 2 px off the hem');
  });
});
