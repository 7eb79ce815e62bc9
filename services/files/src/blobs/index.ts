export * from './blob-store.js';
export { FolderBlobStore } from './folder-store.js';
export { S3BlobStore, type S3StoreConfig } from './s3-store.js';
