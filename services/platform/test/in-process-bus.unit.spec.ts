import assert from 'node:assert/strict';
import { it } from 'vitest';
import { InProcessBus, MemoryInbox } from '../src/index.js';
import { busContract } from './contracts/bus-contract.js';

busContract(
  'in-process',
  async () => new InProcessBus(),
  async () => new MemoryInbox(),
);

it('a member holding many partitions waits on them without Node warning of a listener leak', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  const bus = new InProcessBus();
  try {
    await bus.ensureTopics([{ name: 'orders.v1', partitions: 12 }]);
    const seen: string[] = [];
    const subscription = await bus.subscribe({
      groupId: 'shop',
      topics: ['orders.v1'],
      handle: async (d) => {
        seen.push(d.value.toString());
      },
    });
    await bus.publish([{ topic: 'orders.v1', key: 'k', value: Buffer.from('one'), headers: {} }]);
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    // Node emits its warnings on the next tick.
    await new Promise((r) => setImmediate(r));
    await subscription.close();
  } finally {
    await bus.close();
    process.off('warning', onWarning);
  }
  assert.deepEqual(warnings, []);
});
