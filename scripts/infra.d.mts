// Types of scripts/infra.mjs for TypeScript callers (benchmarks, test helpers).
export interface InfraEnv {
  DATABASE_URL: string;
  KAFKA_BROKERS: string;
  REDIS_URL: string;
  STRIPE_MOCK_URL: string;
  S3_ENDPOINT: string;
  S3_BUCKET: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  CHROMIUM_PATH: string;
}
// Re-exported from scripts/infra/layout.mjs (checked there, by tsconfig.scripts.json).
export { HELM_BIN, KUBECONFORM_BIN, VERSIONS } from './infra/layout.mjs';
/** k6 of the load suite, linked into .infra/bin by `install()` (scripts/infra/k6.mjs). */
export const K6_BIN: string;
export function installK6(): Promise<string>;
export function install(opts?: { quiet?: boolean }): Promise<void>;
export function up(opts?: { quiet?: boolean }): Promise<InfraEnv>;
export function down(opts?: { quiet?: boolean }): Promise<void>;
export function status(opts?: { quiet?: boolean }): Promise<unknown>;
