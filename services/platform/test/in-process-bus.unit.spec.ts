import { InProcessBus, MemoryInbox } from '../src/index.js';
import { busContract } from './contracts/bus-contract.js';

busContract(
  'in-process',
  async () => new InProcessBus(),
  async () => new MemoryInbox(),
);
