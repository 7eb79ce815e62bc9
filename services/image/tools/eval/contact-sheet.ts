import sharp, { type OverlayOptions } from 'sharp';

/** Rows of input | output pairs, 240 px tall, on one PNG. */
export async function contactSheet(pairs: { input: Buffer; output: Buffer }[], tile = 240): Promise<Buffer> {
  const cell = async (b: Buffer) =>
    sharp(b)
      .rotate()
      .resize(tile, tile, { fit: 'contain', background: '#d0d0d0' })
      .flatten({ background: '#d0d0d0' })
      .png()
      .toBuffer();
  const perRow = 3; // three pairs per row
  const rows = Math.max(1, Math.ceil(pairs.length / perRow));
  const width = perRow * (2 * tile + 24),
    height = rows * (tile + 8);
  const overlays: OverlayOptions[] = [];
  for (const [i, p] of pairs.entries()) {
    const x = (i % perRow) * (2 * tile + 24),
      y = Math.floor(i / perRow) * (tile + 8);
    overlays.push(
      { input: await cell(p.input), left: x, top: y },
      { input: await cell(p.output), left: x + tile + 4, top: y },
    );
  }
  return sharp({ create: { width, height, channels: 3, background: '#404040' } })
    .composite(overlays)
    .png()
    .toBuffer();
}
