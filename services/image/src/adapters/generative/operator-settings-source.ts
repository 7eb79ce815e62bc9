// The operator settings as the generative provider's source (ADR 0103, 0802): the key an operator
// saved on the settings page (`{product}_api_key`, which the settings consumer keeps sealed in this
// service's `operator_settings`) wins over GENERATIVE_API_KEY; model, prompts, plans, address and
// timeout stay the environment's, since the operator settings have no such fields. Read once per
// job, so a new key reaches the next job of every worker sharing the database, without a restart.
import { loadSettingsKey, openSetting, type Logger } from '@flatlay/platform';
import type { SealedSetting } from '../sealed-settings-store.js';
import {
  chooseGenerativeSettings,
  type GenerativeEnv,
  type GenerativeSettings,
  type GenerativeSettingsSource,
} from './settings-source.js';

/** The setting that holds the provider's key: analytics names it after GENERATIVE_PROVIDER. */
export const apiKeySetting = (provider: string) => `${provider}_api_key`;

export interface OperatorSettingsDeps {
  /** GENERATIVE_* as read at start. */
  env: GenerativeEnv;
  /** GENERATIVE_PROVIDER: which `{product}_api_key` is the key. */
  provider: string;
  /** The setting as the consumer kept it (the service's table). */
  read(key: string): Promise<SealedSetting | undefined>;
  /** The settings key that opens it; undefined while none is configured (or its file is not there yet). */
  settingsKey(): Promise<Buffer | undefined>;
  logger: Logger;
}

export class OperatorGenerativeSettings implements GenerativeSettingsSource {
  /** What was last warned about, so a key that cannot be opened is logged once, not on every job. */
  private warned: string | undefined;

  constructor(private readonly d: OperatorSettingsDeps) {}

  async current(): Promise<GenerativeSettings | undefined> {
    const name = apiKeySetting(this.d.provider);
    const kept = await this.d.read(name);
    const operatorKey = kept?.sealed ? await this.open(name, kept.sealed, kept.version) : undefined;
    return chooseGenerativeSettings(this.d.env, operatorKey);
  }

  /** The operator's key in clear, or undefined (with a warning) when it cannot be opened here. */
  private async open(name: string, sealed: Buffer, version: number): Promise<string | undefined> {
    const key = await this.d.settingsKey();
    let why = 'SETTINGS_ENCRYPTION_KEY is not set for the image service';
    if (key)
      try {
        return openSetting(key, name, sealed);
      } catch {
        why = 'it was sealed under another SETTINGS_ENCRYPTION_KEY';
      }
    if (this.warned !== `${version}:${why}`) {
      this.warned = `${version}:${why}`;
      this.d.logger.warn(
        { setting: name, version },
        `the operator's generative key cannot be opened (${why}); the environment's key applies`,
      );
    }
    return undefined;
  }
}

/**
 * The settings key from SETTINGS_ENCRYPTION_KEY, else from SETTINGS_ENCRYPTION_KEY_FILE, which
 * analytics makes (the embedded default): read when first needed and kept once found, never made here.
 */
export function settingsKeyFrom(config: {
  SETTINGS_ENCRYPTION_KEY?: string | undefined;
  SETTINGS_ENCRYPTION_KEY_FILE?: string | undefined;
}): () => Promise<Buffer | undefined> {
  let found: Buffer | undefined;
  return async () => {
    found ??= await loadSettingsKey({
      key: config.SETTINGS_ENCRYPTION_KEY,
      keyFile: config.SETTINGS_ENCRYPTION_KEY_FILE,
      create: false,
    });
    return found;
  };
}
