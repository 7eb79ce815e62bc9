// An upload's type, from its leading bytes only: the name and the Content-Type a browser sends
// say nothing reliable. Only the formats the engine reads are recognised.

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic' | 'image/heif' | 'image/avif';

/** How many leading bytes `sniffImageType` needs to decide. */
export const SNIFF_BYTES = 64;

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

/** ISO BMFF (HEIF family): `ftyp` at 4, the major brand at 8, compatible brands after the minor version. */
function isoBrands(head: Buffer): string[] | undefined {
  if (head.length < 12 || head.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  const boxSize = Math.min(head.readUInt32BE(0), head.length);
  const brands = [head.toString('latin1', 8, 12)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(head.toString('latin1', at, at + 4));
  return brands;
}

/** The image type of a file from its first bytes (at least `SNIFF_BYTES` when the file is that long), or undefined. */
export function sniffImageType(head: Buffer): ImageType | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  const brands = isoBrands(head);
  if (!brands) return undefined;
  const [major, ...compatible] = brands as [string, ...string[]];
  if (AVIF_BRANDS.has(major)) return 'image/avif';
  if (HEIC_BRANDS.has(major)) return 'image/heic';
  if (HEIF_BRANDS.has(major)) {
    if (compatible.some((b) => AVIF_BRANDS.has(b))) return 'image/avif';
    if (compatible.some((b) => HEIC_BRANDS.has(b))) return 'image/heic';
    return 'image/heif';
  }
  return undefined;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/heif': 'heif',
};

/** The download name of a file of this type: `enhanced.<ext>` (jpg unless png, webp, avif, heic or heif). */
export const downloadName = (contentType: string) => `enhanced.${EXTENSIONS[contentType] ?? 'jpg'}`;
