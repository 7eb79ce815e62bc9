export * from './generation-job.js';
export * from './enhancement-types.js';
export * from './uploads.js';
export * from './pagination.js';
export * from './image-view.js';
export * from './instruction.js';
