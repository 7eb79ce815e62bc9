export * from './domain/index.js';
