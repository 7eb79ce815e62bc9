import type { ServiceContext } from '@flatlay/platform';
import { blobStoreFrom, urlSigner, urlSigningKey, type BlobStore } from '@flatlay/files';
import { grpcLedger, type LedgerPort } from './adapters/ledger-client.js';
import { loadImageConfig, type ImageConfig } from './config.js';
import { exponentialBackoff, type JobPolicy, type SignKey } from './domain/index.js';
import type { GenerativeEnvName, GenerativeSettingsSource } from './adapters/generative/index.js';
import type { EnhanceEngine } from './app/generation-worker.js';

/** What a composition root or a test may set instead of the environment's choice. */
export interface ImageServiceOptions {
  /** Settings that win over the environment (e.g. the embedded default's data folder, GENERATIVE_*). */
  config?: Partial<Record<keyof ImageConfig | GenerativeEnvName, string>>;
  /** Where the ledger answers; asked on first use (the embedded default learns it after start). */
  ledgerAddress?: () => string;
  ledger?: LedgerPort;
  blobs?: BlobStore;
  /** The engine a worker uses (default: the threaded engine, loaded on the first job). */
  engine?: () => Promise<EnhanceEngine>;
  /**
   * Where the worker reads the generative provider's settings (ADR 0103); default: the operator
   * settings' key (SettingsChanged, kept by this service's consumer) over GENERATIVE_API_KEY, the
   * rest from GENERATIVE_* (OperatorGenerativeSettings).
   */
  generativeSettings?: GenerativeSettingsSource;
  /** Run one generation worker inside the service process (the embedded default). */
  inProcessWorker?: boolean;
  /** Consumer groups other than the registry's (tests that must not share a group with other runs). */
  consumerGroup?: string;
  workerGroup?: string;
  clock?: () => Date;
}

export interface ImageParts {
  config: ImageConfig;
  blobs: BlobStore;
  ledger: LedgerPort;
  sign: SignKey;
  policy: JobPolicy;
}

/**
 * The adapters this service runs on, from the options and the environment. A generation worker on
 * its own (`signsUrls: false`) hands out no file URL, so it holds no URL-signing key: a worker
 * taken over through an image it parses cannot sign a link to anyone's file (ADR 0008).
 */
export function imageParts(ctx: ServiceContext, options: ImageServiceOptions, { signsUrls = true } = {}): ImageParts {
  const config = loadImageConfig(options.config);
  const blobs = options.blobs ?? blobStoreFrom(config);
  const ledger = options.ledger ?? grpcLedger(options.ledgerAddress ?? (() => config.LEDGER_ADDR), ctx.credential);
  const signer = signsUrls ? urlSigner(urlSigningKey(config.IMAGE_URL_SIGNING_KEY, ctx.inProcessKeys)) : undefined;
  const clock = options.clock ?? (() => new Date());
  return {
    config,
    blobs,
    ledger,
    sign: (key) => {
      if (!signer) throw new Error('this generation worker signs no file URLs');
      return signer.sign(`${config.IMAGE_URL_PREFIX}${key}`, clock());
    },
    policy: {
      maxAttempts: config.GENERATION_MAX_ATTEMPTS,
      leaseMs: config.GENERATION_LEASE_SECONDS * 1000,
      backoffMs: exponentialBackoff(config.GENERATION_RETRY_BASE_MS),
    },
  };
}
