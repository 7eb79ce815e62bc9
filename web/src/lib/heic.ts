// HEIC and HEIF photos (what iPhones take) are recognised by their MIME type, their extension, or,
// when a browser reports neither, by the first bytes of the file.

const HEIC_MIME_TYPES = ['image/heic', 'image/heif'];
const HEIC_EXTENSIONS = ['.heic', '.heif'];
const HEIC_BRANDS = ['heic', 'heif', 'heix', 'hevc', 'hevx'];
const CONTAINER_STARTS = ['ftyp', 'moov', 'mdat'];

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** True when the leading bytes are an ISO-BMFF box of a HEIC/HEIF image. */
export function isHeicBytes(bytes: Uint8Array): boolean {
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp' && HEIC_BRANDS.includes(ascii(bytes, 8, 12))) return true;
  return bytes.length >= 4 && CONTAINER_STARTS.includes(ascii(bytes, 0, 4));
}

export function isHeicByName(name: string, type: string): boolean {
  const lower = name.toLowerCase();
  return HEIC_MIME_TYPES.includes(type.toLowerCase()) || HEIC_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

export async function isHeicFile(file: Blob & { name?: string }): Promise<boolean> {
  if (isHeicByName(file.name ?? '', file.type)) return true;
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  return isHeicBytes(head);
}

/** The name a converted photo keeps: the same base, extension .jpg. */
export function jpegNameFor(name: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}.jpg`;
}
