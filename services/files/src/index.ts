// What the gateway shares with the image service, without the service itself (and without its
// engine, onnxruntime and sharp): the blob store (chosen from the same settings), the accepted
// uploads and enhancement types, and the signed file URLs the gateway serves.
export * from './blobs/index.js';
export { blobEnvSchema, blobFolder, blobStoreFrom, type BlobConfig } from './blobs/from-config.js';
export { exportFolder } from './exports.js';
export { ACCEPTED_TYPES, MAIN_TYPES, MAX_UPLOAD_BYTES, SUB_TYPES, UPLOAD_PREFIX } from './uploads.js';
export {
  URL_TTL_SECONDS,
  urlSigner,
  urlSigningKey,
  verifySignedUrl,
  verifyUrl,
  type UrlCheck,
  type UrlSigner,
} from './urls/signed-url.js';
