// The service registry is the one description of the services: each service's definition takes
// its name and topics from it, and what its consumers read is what the registry says it consumes.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { mayCall, registry, serviceNames, serviceTopics } from '@flatlay/platform';
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

  it('lets the gateway call every service, the image service the ledger, and no one else anyone', () => {
    for (const n of serviceNames) assert.ok(mayCall('gateway', n), `gateway -> ${n}`);
    const edges = serviceNames.flatMap((from) =>
      serviceNames.filter((to) => mayCall(from, to)).map((to) => `${from}->${to}`),
    );
    assert.deepEqual(edges, ['image->ledger']);
    assert.equal(mayCall('stranger', 'ledger'), false);
  });
});
