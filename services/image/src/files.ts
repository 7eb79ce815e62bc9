// What the gateway shares with the image service, without the service itself: the blob store
// (chosen from the same settings), the accepted uploads, and the signed file URLs it serves.
export * from './blobs/index.js';
export { blobEnvSchema, blobFolder, blobStoreFrom, type BlobConfig } from './blobs/from-config.js';
export { ACCEPTED_TYPES, MAX_UPLOAD_BYTES, UPLOAD_PREFIX } from './domain/uploads.js';
export { URL_TTL_SECONDS, urlSigner, urlSigningKey, verifySignedUrl, verifyUrl } from './urls/signed-url.js';
export { MAIN_TYPES, OPEN_SUB_TYPES } from './domain/enhancement-types.js';
export { SUB_TYPES } from './engine/recipes/recipe.js';
