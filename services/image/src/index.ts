export {
  createImageService,
  createGenerationWorkerService,
  imageService,
  type ImageServiceOptions,
} from './service.js';
export { FolderBlobStore, S3BlobStore, type BlobStore, type BlobInfo, type Blob } from './blobs/index.js';
export { verifySignedUrl, verifyUrl, urlSigningKey, URL_TTL_SECONDS } from './urls/signed-url.js';
