import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { erode } from '../../src/engine/stages/mask-ops.js';
import { drawPart, PART_REACH, type PartColour, type PartName } from './parts.js';
import { fillOutlines, type Layer, maskBox, PROPS, type PropName, paintOver } from './props.js';

/** Synthetic scenes with known answers, built from a clean garment and its mask. */

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Casual failure cases as synthetic stand-ins with known masks (the dataset has no hand-made masks
 * for them): 'frame-cut', the garment placed so a fifth of it runs off the photo's left edge (a
 * sleeve off the frame); 'camouflage', the floor's own texture blended into the garment (80%), so
 * product and floor look alike; 'hand-held', a skin-toned arm and hand from the bottom edge over
 * the product's edge (drawn, shaded as a cylinder), which is not part of the product's mask.
 */
export type SceneVariant = 'plain' | 'frame-cut' | 'camouflage' | 'hand-held' | `prop-${PropName}` | `part-${PartName}`;

export interface Scene {
  name: string;
  variant: SceneVariant;
  input: Buffer; // JPEG, as a phone would deliver it
  gtMask: { data: Uint8Array; width: number; height: number }; // scene coordinates
  rotationDeg: number; // applied clockwise
  cast: [number, number, number];
  cleanRgb: { data: Buffer; width: number; height: number };
  cleanMask: Uint8Array;
  /**
   * The product as it really looks in the scene before the colour cast, for the colour error where
   * the clean garment is not that (blended with the floor, partly covered, partly off the frame):
   * scene pixels and the product's mask, eroded, in scene coordinates. Absent for plain scenes.
   */
  reference?: { data: Buffer; channels: 3; mask: Uint8Array; width: number; height: number };
  /** A part scene's own thin part outside the garment's outline (scene coordinates): what must be kept. */
  part?: Uint8Array;
}

/** Blend share of the floor's texture in a camouflage scene's garment. */
const CAMOUFLAGE = 0.8;
/** Share of the garment's width placed off the frame in a frame-cut scene. */
const OFF_FRAME = 0.2;

const SCENE = 1200;

export async function makeScene(
  dataset: string,
  garment: string,
  background: string,
  seed: number,
  variant: SceneVariant = 'plain',
): Promise<Scene> {
  const { rand, stem, rgbImg, mask, w, h, rotationDeg, scale } = await drawGarment(dataset, garment, seed);
  // one operation per sharp pass: sharp reorders rotate and resize inside a single pipeline
  const joined = await sharp(rgbImg.data, { raw: { width: w, height: h, channels: 3 } })
    .joinChannel(Buffer.from(mask), { raw: { width: w, height: h, channels: 1 } })
    .raw()
    .toBuffer();
  const sw = Math.round(w * scale),
    sh = Math.round(h * scale);
  const scaled = await sharp(joined, { raw: { width: w, height: h, channels: 4 } })
    .resize(sw, sh, { fit: 'fill' })
    .raw()
    .toBuffer();
  const rgba = await sharp(scaled, { raw: { width: sw, height: sh, channels: 4 } })
    .rotate(rotationDeg, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  let gw = rgba.info.width;
  const gh = rgba.info.height;
  let left = Math.round((SCENE - gw) * (0.2 + 0.6 * rand()));
  const top = Math.round((SCENE - gh) * (0.2 + 0.6 * rand()));
  let placed = rgba.data;
  if (variant === 'frame-cut') {
    // the photo's left edge cuts the garment: keep the part that lies inside the frame
    const alpha = await sharp(rgba.data).extractChannel(3).raw().toBuffer();
    let gl = gw,
      gr = 0; // the garment's own extent (the clean photo has margins around it)
    for (let p = 0; p < alpha.length; p++)
      if (alpha[p]! >= 128) {
        gl = Math.min(gl, p % gw);
        gr = Math.max(gr, p % gw);
      }
    const off = Math.round(gl + OFF_FRAME * (gr - gl));
    placed = await sharp(rgba.data)
      .extract({ left: off, top: 0, width: gw - off, height: gh })
      .png()
      .toBuffer();
    gw -= off;
    left = 0;
  }
  const bg = await floor(dataset, background);
  const scene = await sharp(bg)
    .composite([{ input: placed, left, top }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const gt = await sharp({
    create: { width: SCENE, height: SCENE, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } },
  })
    .composite([{ input: await sharp(placed).extractChannel(3).toColourspace('b-w').png().toBuffer(), left, top }])
    .extractChannel(0)
    .raw()
    .toBuffer();
  const gtMask = new Uint8Array(gt.length);
  for (let i = 0; i < gt.length; i++) gtMask[i] = gt[i]! >= 128 ? 255 : 0;
  if (variant === 'camouflage') {
    const floor = await sharp(bg).raw().toBuffer();
    for (let p = 0; p < gt.length; p++) {
      const k = (CAMOUFLAGE * gt[p]!) / 255;
      for (let c = 0; c < 3; c++)
        scene.data[p * 3 + c] = Math.round((1 - k) * scene.data[p * 3 + c]! + k * floor[p * 3 + c]!);
    }
  }
  if (variant === 'hand-held') drawHand(scene.data, gtMask, rand);
  const suffix = variant === 'plain' ? '' : `+${variant}`;
  return finishScene({
    name: `${stem}@${background.replace(/\.[^.]+$/, '')}${suffix}`,
    variant,
    rgb: scene.data,
    gtMask,
    rotationDeg,
    rand,
    clean: { rgbImg, mask },
    seenInScene: variant !== 'plain',
  });
}

/**
 * The scene as a phone delivers it (a colour cast drawn from `rand`, JPEG at 92) with its truths.
 * `seenInScene`: the product as it looks in the scene is not the clean garment (blended with the
 * floor, partly covered, partly off the frame), so its colour is read off the scene.
 */
async function finishScene(s: {
  name: string;
  variant: SceneVariant;
  rgb: Buffer;
  gtMask: Uint8Array;
  rotationDeg: number;
  rand: () => number;
  clean: { rgbImg: { data: Buffer; info: { width: number; height: number } }; mask: Uint8Array };
  seenInScene: boolean;
}): Promise<Scene> {
  const cast: [number, number, number] = [0.9 + s.rand() * 0.2, 1, 0.9 + s.rand() * 0.2];
  const input = await sharp(s.rgb, { raw: { width: SCENE, height: SCENE, channels: 3 } })
    .linear(cast, [0, 0, 0])
    .jpeg({ quality: 92 })
    .toBuffer();
  const gtMask = { data: s.gtMask, width: SCENE, height: SCENE };
  return {
    name: s.name,
    variant: s.variant,
    input,
    gtMask,
    rotationDeg: s.rotationDeg,
    cast,
    cleanRgb: { data: s.clean.rgbImg.data, width: s.clean.rgbImg.info.width, height: s.clean.rgbImg.info.height },
    cleanMask: s.clean.mask,
    reference: s.seenInScene
      ? { data: s.rgb, channels: 3, mask: erode(gtMask, 3).data, width: SCENE, height: SCENE }
      : undefined,
  };
}

/**
 * A scene's first draws: the clean garment, its angle (within 15° either way) and its size (half
 * to three quarters of the scene); `rand` goes on to draw its place and cast.
 */
async function drawGarment(dataset: string, garment: string, seed: number) {
  const rand = rng(seed);
  const { stem, rgbImg, mask } = await loadClean(dataset, garment);
  const { width: w, height: h } = rgbImg.info;
  const rotationDeg = Math.round((rand() * 30 - 15) * 10) / 10;
  const scale = ((0.5 + rand() * 0.25) * SCENE) / Math.max(w, h);
  return { rand, stem, rgbImg, mask, w, h, rotationDeg, scale };
}

/** A clean garment, its RGB and its mask (thresholded at 128), from the dataset's clean folder. */
async function loadClean(dataset: string, garment: string) {
  const file = path.join(dataset, 'clean', garment);
  const stem = garment.replace(/\.[^.]+$/, '');
  const maskFile = readdirSync(path.join(dataset, 'clean')).find((f) => f.startsWith(`${stem}_mask.`))!;
  const rgbImg = await sharp(await readFile(file))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = rgbImg.info;
  const maskRaw = await sharp(await readFile(path.join(dataset, 'clean', maskFile)))
    .resize(w, h, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const mask = new Uint8Array(maskRaw.length);
  for (let i = 0; i < mask.length; i++) mask[i] = maskRaw[i]! >= 128 ? 255 : 0;
  return { stem, rgbImg, mask };
}

/** The floor texture as the scene's background (a JPEG of SCENE x SCENE). */
const floor = (dataset: string, background: string) =>
  sharp(path.join(dataset, 'backgrounds', background))
    .resize(SCENE, SCENE, { fit: 'cover' })
    .removeAlpha()
    .toBuffer();

/** A raw RGBA layer scaled to w x h, then turned by `deg` clockwise (transparent corners). */
async function scaleAndTurn(layer: Layer, w: number, h: number, deg: number): Promise<Layer> {
  const raw = { width: layer.width, height: layer.height, channels: 4 as const };
  const sized = await sharp(layer.data, { raw }).resize(w, h, { fit: 'fill' }).raw().toBuffer();
  // one operation per sharp pass, as in makeScene
  const turned = await sharp(sized, { raw: { width: w, height: h, channels: 4 } })
    .rotate(deg, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: turned.data, width: turned.info.width, height: turned.info.height };
}

/**
 * A scene with a real prop touching the product (props.ts): a clean garment with a hanger or a
 * clothes rail behind it, or a hand over its edge, turned and placed on a floor as `makeScene`
 * places a plain garment (the same draw of angle, size, place and cast). The prop is composited
 * in the garment's own pixels first, at its anchor, so it turns with the product; where it runs
 * past the scene's edge it is cut there, as a rail is in a photo. The truth is the garment's mask
 * less what a prop over it covers.
 */
export async function makePropScene(
  dataset: string,
  garment: string,
  background: string,
  seed: number,
  propName: PropName,
): Promise<Scene> {
  const { rand, stem, rgbImg, mask, w, h, rotationDeg, scale } = await drawGarment(dataset, garment, seed);
  const prop = PROPS[propName];
  const product = maskBox(mask, w, h);
  if (!product) throw new Error(`${garment}: its mask is empty`);

  // the prop cut from its photo by its outline, at its scale beside this product
  const photo = await sharp(path.join(dataset, 'casual', prop.photo))
    .rotate()
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pw = photo.info.width,
    ph = photo.info.height;
  const outline = fillOutlines(prop.outlines, pw, ph);
  const pb = maskBox(outline, pw, ph);
  if (!pb) throw new Error(`${prop.name}: its outline covers no pixel of ${prop.photo}`);
  const cw = pb.right - pb.left + 1,
    ch = pb.bottom - pb.top + 1;
  const cut = new Uint8Array(cw * ch * 4);
  for (let y = 0; y < ch; y++)
    for (let x = 0; x < cw; x++) {
      const p = (pb.top + y) * pw + pb.left + x,
        q = (y * cw + x) * 4;
      for (let c = 0; c < 3; c++) cut[q + c] = photo.data[p * 3 + c]!;
      cut[q + 3] = outline[p]!;
    }
  const k = prop.scale(product, mask, w);
  const kw = Math.max(1, Math.round(cw * k)),
    kh = Math.max(1, Math.round(ch * k));
  const sized: Layer = {
    data: await sharp(cut, { raw: { width: cw, height: ch, channels: 4 } })
      .resize(kw, kh, { fit: 'fill' })
      .raw()
      .toBuffer(),
    width: kw,
    height: kh,
  };
  const [mx, my] = prop.meets(product, mask, w);
  const px = Math.round(mx - ((prop.anchor[0] - pb.left + 0.5) * kw) / cw),
    py = Math.round(my - ((prop.anchor[1] - pb.top + 0.5) * kh) / ch);

  // the garment and the prop on one canvas in the garment's pixels, and the truth beside it
  const ox = -Math.min(0, px),
    oy = -Math.min(0, py);
  const W = Math.max(w, px + kw) + ox,
    H = Math.max(h, py + kh) + oy;
  const garmentLayer: Layer = { data: new Uint8Array(w * h * 4), width: w, height: h };
  for (let p = 0; p < w * h; p++) {
    for (let c = 0; c < 3; c++) garmentLayer.data[p * 4 + c] = rgbImg.data[p * 3 + c]!;
    garmentLayer.data[p * 4 + 3] = mask[p]!;
  }
  const canvas: Layer = { data: new Uint8Array(W * H * 4), width: W, height: H };
  const layers: [Layer, number, number][] = [
    [sized, px + ox, py + oy],
    [garmentLayer, ox, oy],
  ];
  if (prop.layer === 'over') layers.reverse();
  for (const [layer, left, top] of layers) paintOver(canvas, layer, left, top);
  // the truth as the alpha of a white layer, so it goes through the very same resize and turn
  const truth: Layer = { data: new Uint8Array(W * H * 4).fill(255), width: W, height: H };
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const gx = x - ox,
        gy = y - oy,
        sx = x - px - ox,
        sy = y - py - oy;
      const inGarment = gx >= 0 && gy >= 0 && gx < w && gy < h ? mask[gy * w + gx]! : 0;
      const covered =
        prop.layer === 'over' && sx >= 0 && sy >= 0 && sx < kw && sy < kh ? sized.data[(sy * kw + sx) * 4 + 3]! : 0;
      truth.data[(y * W + x) * 4 + 3] = Math.round((inGarment * (255 - covered)) / 255);
    }
  const sw = Math.round(W * scale),
    sh = Math.round(H * scale);
  const placedScene = await scaleAndTurn(canvas, sw, sh, rotationDeg);
  const placedTruth = await scaleAndTurn(truth, sw, sh, rotationDeg);
  const alpha = alphaMask(placedTruth);
  const tb = maskBox(alpha, placedTruth.width, placedTruth.height)!;

  // placed as makeScene places a garment: its own box at a drawn spot away from the edges
  let { left, top } = drawPlace(tb, rand);
  if (prop.offFrame === 'lower-left') {
    // a prop cut by its photo's lower left corner runs off the scene's: its box's corner goes past
    // the scene's by as much as a turned cut side can rise (its length times the angle's sine)
    const alone: Layer = { data: new Uint8Array(W * H * 4), width: W, height: H };
    paintOver(alone, sized, px + ox, py + oy);
    const placedProp = await scaleAndTurn(alone, sw, sh, rotationDeg);
    const pbox = maskBox(alphaMask(placedProp), placedProp.width, placedProp.height)!;
    const rise = Math.ceil(Math.max(kw, kh) * scale * Math.abs(Math.sin((rotationDeg * Math.PI) / 180))) + 2;
    left = -pbox.left - rise;
    top = SCENE - 1 - pbox.bottom + rise;
    // the product itself stays inside the frame: lifted if a turn took its lowest part past it
    top -= Math.max(0, top + tb.bottom - (SCENE - 3));
  }
  const rgb = await onFloor(dataset, background, placedScene, left, top);
  const gtMask = inScene(alpha, placedTruth, left, top);

  // a hand hides part of the product: its colour is read off the scene, as for the failure
  // scenes; behind a hanger or a rail the product is whole and the clean garment is the truth
  return finishScene({
    name: `${stem}@${background.replace(/\.[^.]+$/, '')}+${prop.name}`,
    variant: `prop-${prop.name}`,
    rgb,
    gtMask,
    rotationDeg,
    rand,
    clean: { rgbImg, mask },
    seenInScene: prop.layer === 'over',
  });
}

/**
 * A scene with the product's own thin part (parts.ts): a bag's strap or chain, a top's
 * drawstrings, trousers' waist cords, drawn on the clean garment in its pixels (with room round
 * it for the part) and then scaled, turned and placed as `makePropScene` places a garment and its
 * prop. The truth is the garment's mask and the part; `part` is the part outside the garment's
 * own outline, the pixels a rule that takes thin things away could lose.
 */
export async function makePartScene(
  dataset: string,
  garment: string,
  background: string,
  seed: number,
  partName: PartName,
  colour: PartColour,
): Promise<Scene> {
  const { rand, stem, rgbImg, mask, w, h, rotationDeg, scale } = await drawGarment(dataset, garment, seed);
  const box = maskBox(mask, w, h);
  if (!box) throw new Error(`${garment}: its mask is empty`);
  const margin = Math.ceil(PART_REACH * Math.max(box.right - box.left + 1, box.bottom - box.top + 1));
  const W = w + 2 * margin,
    H = h + 2 * margin;
  const canvas: Layer = { data: new Uint8Array(W * H * 4), width: W, height: H };
  const onCanvas = new Uint8Array(W * H);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const p = y * w + x,
        q = (y + margin) * W + x + margin;
      for (let c = 0; c < 3; c++) canvas.data[q * 4 + c] = rgbImg.data[p * 3 + c]!;
      canvas.data[q * 4 + 3] = mask[p]!;
      onCanvas[q] = mask[p]!;
    }
  const shifted = {
    left: box.left + margin,
    top: box.top + margin,
    right: box.right + margin,
    bottom: box.bottom + margin,
  };
  const part = drawPart(canvas, onCanvas, shifted, partName, colour);
  // the truths as the alpha of white layers, so they go through the very same resize and turn
  const truth: Layer = { data: new Uint8Array(W * H * 4).fill(255), width: W, height: H };
  const outside: Layer = { data: new Uint8Array(W * H * 4).fill(255), width: W, height: H };
  for (let p = 0; p < W * H; p++) {
    truth.data[p * 4 + 3] = onCanvas[p]! || part[p]!;
    outside.data[p * 4 + 3] = onCanvas[p] ? 0 : part[p]!;
  }
  const sw = Math.round(W * scale),
    sh = Math.round(H * scale);
  const placed = await scaleAndTurn(canvas, sw, sh, rotationDeg);
  const placedTruth = await scaleAndTurn(truth, sw, sh, rotationDeg);
  const alpha = alphaMask(placedTruth);
  const { left, top } = drawPlace(maskBox(alpha, placedTruth.width, placedTruth.height)!, rand);
  const placedPart = await scaleAndTurn(outside, sw, sh, rotationDeg);
  const rgb = await onFloor(dataset, background, placed, left, top);
  const scene = await finishScene({
    name: `${stem}@${background.replace(/\.[^.]+$/, '')}+${partName}${colour === 'white' ? '-white' : ''}`,
    variant: `part-${partName}`,
    rgb,
    gtMask: inScene(alpha, placedTruth, left, top),
    rotationDeg,
    rand,
    clean: { rgbImg, mask },
    // the parts change the product's look (cords over it): its colour is read off the scene
    seenInScene: true,
  });
  return { ...scene, part: inScene(alphaMask(placedPart), placedPart, left, top) };
}

/** A layer's alpha as a mask: 255 where it is at least half opaque. */
function alphaMask(layer: Layer): Uint8Array {
  const alpha = new Uint8Array(layer.width * layer.height);
  for (let p = 0; p < alpha.length; p++) alpha[p] = layer.data[p * 4 + 3]! >= 128 ? 255 : 0;
  return alpha;
}

/** Where a composite goes: its truth's box at a drawn spot away from the scene's edges (two draws). */
function drawPlace(box: { left: number; top: number; right: number; bottom: number }, rand: () => number) {
  const left = Math.round((SCENE - (box.right - box.left + 1)) * (0.2 + 0.6 * rand())) - box.left;
  const top = Math.round((SCENE - (box.bottom - box.top + 1)) * (0.2 + 0.6 * rand())) - box.top;
  return { left, top };
}

/** The scene's RGB: the floor with the placed layer painted over it at (left, top). */
async function onFloor(dataset: string, background: string, placed: Layer, left: number, top: number) {
  const bg = await sharp(await floor(dataset, background))
    .raw()
    .toBuffer();
  const sceneLayer: Layer = { data: new Uint8Array(SCENE * SCENE * 4), width: SCENE, height: SCENE };
  for (let p = 0; p < SCENE * SCENE; p++) {
    for (let c = 0; c < 3; c++) sceneLayer.data[p * 4 + c] = bg[p * 3 + c]!;
    sceneLayer.data[p * 4 + 3] = 255;
  }
  paintOver(sceneLayer, placed, left, top);
  const rgb = Buffer.alloc(SCENE * SCENE * 3);
  for (let p = 0; p < SCENE * SCENE; p++) for (let c = 0; c < 3; c++) rgb[p * 3 + c] = sceneLayer.data[p * 4 + c]!;
  return rgb;
}

/** A mask of a placed layer's size, put in scene coordinates at (left, top) and cut by the frame. */
function inScene(mask: Uint8Array, size: { width: number; height: number }, left: number, top: number): Uint8Array {
  const out = new Uint8Array(SCENE * SCENE);
  for (let y = Math.max(0, top); y < Math.min(SCENE, top + size.height); y++)
    for (let x = Math.max(0, left); x < Math.min(SCENE, left + size.width); x++)
      out[y * SCENE + x] = mask[(y - top) * size.width + (x - left)]!;
  return out;
}

/**
 * A forearm and hand holding the product: from the bottom edge of the photo up to the product's
 * lower edge, the palm over that edge. Skin tone shaded as a cylinder (darker at the sides) with a
 * little grain. The product's true mask loses what the hand covers.
 */
function drawHand(rgb: Buffer, product: Uint8Array, rand: () => number): void {
  let minX = SCENE,
    maxX = -1;
  for (let p = 0; p < product.length; p++)
    if (product[p]) {
      const x = p % SCENE;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
    }
  // the palm straddles the product's lower edge, three quarters of the way across
  const hx = Math.round(minX + 0.75 * (maxX - minX));
  let hy = 0;
  for (let y = 0; y < SCENE; y++) if (product[y * SCENE + hx]) hy = y;
  const palm = 0.055 * SCENE,
    arm = 0.04 * SCENE; // half widths
  const tilt = ((rand() * 20 - 10) * Math.PI) / 180; // the arm leans up to 10° from vertical
  const dx = Math.sin(tilt),
    dy = Math.cos(tilt); // direction from the palm down to the frame's bottom edge
  const skin = [222, 170, 138];
  for (let y = 0; y < SCENE; y++)
    for (let x = 0; x < SCENE; x++) {
      const rx = x + 0.5 - hx,
        ry = y + 0.5 - hy;
      const along = rx * dx + ry * dy,
        across = rx * dy - ry * dx;
      const inPalm = (along / (1.25 * palm)) ** 2 + (across / palm) ** 2 <= 1;
      const inArm = along >= 0 && Math.abs(across) <= arm;
      if (!inPalm && !inArm) continue;
      const half = inPalm && along < palm ? palm : arm;
      const shade = 0.7 + 0.3 * Math.cos((Math.min(1, Math.abs(across) / half) * Math.PI) / 2);
      const p = y * SCENE + x;
      const grain = (rand() - 0.5) * 8;
      for (let c = 0; c < 3; c++) rgb[p * 3 + c] = Math.max(0, Math.min(255, Math.round(skin[c]! * shade + grain)));
      product[p] = 0;
    }
}

/** The engine's product type for a clean garment's file name. */
export function typeFor(name: string): string {
  if (name.startsWith('top')) return 'tops';
  if (name.startsWith('bottom')) return 'bottoms';
  if (name.startsWith('bag')) return 'bags_belts';
  if (name.startsWith('shoes_side')) return 'side_view';
  if (name.startsWith('shoes_front')) return 'front_view';
  if (name.startsWith('shoes')) return 'two_shoe';
  if (name.startsWith('headwear')) return 'accessory_headwear';
  if (name.startsWith('accessory_sunglasses')) return 'jewelry';
  if (name.startsWith('accessory')) return 'bags_belts';
  if (name.startsWith('detail')) return 'hardware_tag';
  return 'clothing';
}
