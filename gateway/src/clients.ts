import { analytics, billing, identity, image, ledger } from '@flatlay/proto';
import { AppError, createClient, ServiceCredential } from '@flatlay/platform';
import type { ServiceAddress } from './routes/health.js';

export interface ServiceClients {
  identity(): identity.IdentityServiceClient;
  ledger(): ledger.LedgerServiceClient;
  image(): image.ImageServiceClient;
  analytics(): analytics.AnalyticsServiceClient;
  billing(): billing.BillingServiceClient;
  close(): void;
}

/**
 * One gRPC client per service, made on first use from the configured addresses; every call
 * presents the gateway's service credential (by default the one of this process tree, which the
 * embedded default's services accept).
 */
export function serviceClients(
  services: ServiceAddress[],
  credential = new ServiceCredential('gateway'),
): ServiceClients {
  const made = new Map<string, { close(): void }>();
  const get = <C extends { close(): void }>(name: string, make: (address: string) => C): C => {
    const existing = made.get(name);
    if (existing) return existing as C;
    const address = services.find((s) => s.name === name)?.address;
    if (!address) throw new AppError('UNAVAILABLE', `The ${name} service is not configured`);
    const client = make(address);
    made.set(name, client);
    return client;
  };
  return {
    identity: () => get('identity', (a) => createClient(identity.IdentityServiceClient, a, credential)),
    ledger: () => get('ledger', (a) => createClient(ledger.LedgerServiceClient, a, credential)),
    image: () => get('image', (a) => createClient(image.ImageServiceClient, a, credential)),
    analytics: () => get('analytics', (a) => createClient(analytics.AnalyticsServiceClient, a, credential)),
    billing: () => get('billing', (a) => createClient(billing.BillingServiceClient, a, credential)),
    close: () => {
      for (const c of made.values()) c.close();
      made.clear();
    },
  };
}
