// k6 (the load generator of the load smoke test and `npm run bench:api`): built with the other Go
// tools once per machine (kube-family.mjs, outside the clone); the clone's .infra/bin/k6 points at it.

import path from 'node:path';
import { linkGoTool } from './go-tools.mjs';
import { BIN } from './layout.mjs';

export const K6_BIN = path.join(BIN, 'k6');

/** Links k6 into .infra/bin (building the Go tools first where needed); answers the link. */
export const installK6 = () => linkGoTool(K6_BIN, 'k6');
