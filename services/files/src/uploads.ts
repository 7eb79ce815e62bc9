// What the gateway and the image service agree an upload is, and what may be asked of it: no
// I/O and no dependencies, so the engine (and each of its threads) can load it without the blob
// stores' S3 client.

/** What a photo upload must be: one of the stated formats, at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const ACCEPTED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/avif',
] as const;

/** The gateway puts uploads under this prefix; a generation may only start from one of them. */
export const UPLOAD_PREFIX = 'uploads/';

/** The enhancement types and the sub-types of each: what the gateway accepts and the engine has a recipe for. */
export const SUB_TYPES = {
  clothing: ['tops', 'bottoms', 'socks'],
  accessory: ['jewelry', 'bags_belts', 'accessory_headwear'],
  shoes: ['two_shoe', 'side_view', 'front_view'],
  details: ['logo_detail', 'fabric_texture', 'hardware_tag'],
} as const;

export const MAIN_TYPES = Object.keys(SUB_TYPES) as Array<keyof typeof SUB_TYPES>;
