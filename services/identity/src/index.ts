export { identityService, createIdentityService, type IdentityOverrides } from './service.js';
export { identityEnvSchema, type IdentityConfig } from './config.js';
