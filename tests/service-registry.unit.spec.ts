// The service registry is the one description of the services: each service's definition takes
// its name and topics from it, and what its consumers read is what the registry says it consumes.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { analytics, billing, identity, image, ledger } from '@flatlay/proto';
import {
  callerNames,
  calleesOf,
  mayCall,
  registry,
  serviceNames,
  serviceTopics,
  type ServiceName,
} from '@flatlay/platform';
import { analyticsService } from '@flatlay/analytics';
import { billingService } from '@flatlay/billing';
import { identityService } from '@flatlay/identity';
import { imageService } from '@flatlay/image';
import { ledgerService } from '@flatlay/ledger';
import { consumedTopics as identityConsumes } from '../services/identity/src/consumers/subscription-consumer.js';
import { consumedTopics as imageConsumes } from '../services/image/src/consumers/image-consumers.js';
import { settingsTopic as imageSettingsTopic } from '../services/image/src/consumers/settings-consumer.js';
import { consumedTopics as ledgerConsumes } from '../services/ledger/src/consumers/ledger-consumers.js';

describe('service registry', () => {
  it('names one definition per service, each creating the topics the registry gives it', () => {
    const defs = [identityService, ledgerService, imageService, billingService, analyticsService];
    assert.deepEqual(defs.map((d) => d.name).sort(), [...serviceNames].sort());
    for (const d of defs) assert.deepEqual(d.topics, serviceTopics(d.name), d.name);
  });

  it('matches what the consumers of identity, the ledger and image read', () => {
    assert.deepEqual([...identityConsumes].sort(), [...registry.identity.consumes!.topics].sort());
    assert.deepEqual([...ledgerConsumes].sort(), [...registry.ledger.consumes!.topics].sort());
    assert.deepEqual([...imageConsumes, imageSettingsTopic].sort(), [...registry.image.consumes!.topics].sort());
  });

  it('lets the gateway call every service, the image service and its workers the ledger, and no one else anyone', () => {
    for (const n of serviceNames) assert.ok(mayCall('gateway', n), `gateway -> ${n}`);
    const edges = callerNames
      .filter((from) => from !== 'gateway')
      .flatMap((from) => calleesOf(from).map((to) => `${from}->${to}`));
    assert.deepEqual(edges, ['image->ledger', 'image-worker->ledger']);
    assert.equal(mayCall('stranger', 'ledger'), false);
  });

  it('edges per method: a worker may Refund, never Adjust or Spend; the image service Spend and Refund; the gateway all', () => {
    assert.ok(mayCall('image-worker', 'ledger', 'Refund'));
    for (const m of ['Adjust', 'Spend', 'Credit', 'GrantPlan', 'GetServiceStatus'])
      assert.equal(mayCall('image-worker', 'ledger', m), false, `image-worker -> ledger ${m}`);
    assert.ok(mayCall('image', 'ledger', 'Spend') && mayCall('image', 'ledger', 'Refund'));
    assert.equal(mayCall('image', 'ledger', 'Adjust'), false);
    assert.ok(mayCall('gateway', 'ledger', 'Adjust'));
    assert.equal(mayCall('identity', 'ledger', 'Refund'), false);
  });

  it("names only methods the callee's API has", () => {
    const definitions: Record<ServiceName, object> = {
      identity: identity.IdentityServiceService,
      ledger: ledger.LedgerServiceService,
      image: image.ImageServiceService,
      billing: billing.BillingServiceService,
      analytics: analytics.AnalyticsServiceService,
    };
    for (const caller of callerNames)
      for (const [callee, methods] of Object.entries(registry[caller].calls)) {
        if (methods === 'all') continue;
        const paths = Object.values(definitions[callee as ServiceName]).map((d: { path: string }) => d.path);
        for (const m of methods)
          assert.ok(
            paths.some((p) => p.endsWith(`/${m}`)),
            `${caller} -> ${callee}.${m}: no such method`,
          );
      }
  });
});
