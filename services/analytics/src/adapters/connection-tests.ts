// The Test button: one real call to the provider with the saved settings. Stripe: the account's
// balance (and each configured price); the generative provider: its model list
// (OpenAI-compatible GET <GENERATIVE_API_URL>/models). Failures answer 'Connection failed: <reason>'.
import type { SettingsConfig } from '../config.js';

export interface ConnectionResult {
  success: boolean;
  message: string;
}

const failed = (reason: string): ConnectionResult => ({ success: false, message: `Connection failed: ${reason}` });

async function getJson(url: string, token: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body };
}

/** The provider's own words for a refusal, when it gave any (OpenAI and Stripe both use error.message). */
const providerMessage = (status: number, body: unknown): string => {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return `HTTP ${status}${typeof message === 'string' && message ? ` (${message.slice(0, 200)})` : ''}`;
};

const networkReason = (error: unknown): string => {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'the provider did not answer in time';
  return e.cause?.code ?? e.cause?.message ?? e.message;
};

export async function testGenerativeProvider(
  config: Pick<SettingsConfig, 'GENERATIVE_PROVIDER' | 'GENERATIVE_API_URL' | 'SETTINGS_TEST_TIMEOUT_MS'>,
  apiKey: string | undefined,
): Promise<ConnectionResult> {
  const provider = config.GENERATIVE_PROVIDER;
  if (!apiKey) return failed(`${provider}_api_key is not set`);
  try {
    // The same base address the image worker calls (`<url>/images/edits`): the models list is beside it.
    const url = `${config.GENERATIVE_API_URL.replace(/\/+$/, '')}/models`;
    const { status, body } = await getJson(url, apiKey, config.SETTINGS_TEST_TIMEOUT_MS);
    if (status === 401 || status === 403)
      return failed(`${provider} refused the key: ${providerMessage(status, body)}`);
    if (status !== 200) return failed(`${provider} answered ${providerMessage(status, body)}`);
    const models = (body as { data?: unknown }).data;
    if (!Array.isArray(models)) return failed(`${provider} answered without a model list`);
    return { success: true, message: `Connected to ${provider}: ${models.length} models available` };
  } catch (error) {
    return failed(networkReason(error));
  }
}

export async function testStripe(
  config: Pick<SettingsConfig, 'STRIPE_SECRET_KEY' | 'STRIPE_API_URL' | 'SETTINGS_TEST_TIMEOUT_MS'>,
  settings: { publicKey?: string; priceIds: Array<[key: string, priceId: string]> },
): Promise<ConnectionResult> {
  const secret = config.STRIPE_SECRET_KEY;
  if (!secret) return failed('no Stripe secret key is configured on the server (STRIPE_SECRET_KEY)');
  // A test-mode publishable key with a live secret key (or the reverse) would take no payment.
  const mode = (key: string) => (/_live_/.test(key) ? 'live' : 'test');
  if (settings.publicKey && mode(settings.publicKey) !== mode(secret))
    return failed(
      `stripe_public_key is a ${mode(settings.publicKey)} key but the server's secret key is a ${mode(secret)} key`,
    );
  const base = config.STRIPE_API_URL ?? 'https://api.stripe.com';
  try {
    const balance = await getJson(new URL('/v1/balance', base).toString(), secret, config.SETTINGS_TEST_TIMEOUT_MS);
    if (balance.status !== 200) return failed(`Stripe answered ${providerMessage(balance.status, balance.body)}`);
    for (const [key, priceId] of settings.priceIds) {
      const url = new URL(`/v1/prices/${encodeURIComponent(priceId)}`, base).toString();
      const price = await getJson(url, secret, config.SETTINGS_TEST_TIMEOUT_MS);
      if (price.status !== 200)
        return failed(`${key} (${priceId}): Stripe answered ${providerMessage(price.status, price.body)}`);
    }
    const prices = settings.priceIds.length;
    return {
      success: true,
      message: `Connected to Stripe: balance read${prices ? `, ${prices} price id${prices === 1 ? '' : 's'} found` : ''}`,
    };
  } catch (error) {
    return failed(networkReason(error));
  }
}
