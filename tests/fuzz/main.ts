// `npm run fuzz`: the API fuzz run with 200 examples per operation (tests/fuzz/run.ts), its
// reports under reports/fuzz/ (JUnit, NDJSON events, statuses per operation, summary.json).
// `--examples N` changes the count.
import { join } from 'node:path';
import { problemsOf, ROLES, repoRoot, runFuzz } from './run.js';

const at = process.argv.indexOf('--examples');
const examples = at > 0 ? Number(process.argv[at + 1]) : 200;
const reportDir = join(repoRoot, 'reports', 'fuzz');
const result = await runFuzz({ examples, reportDir, log: (line) => console.log(line) });
for (const role of ROLES) {
  const r = result.roles[role];
  console.log(`${role}: ${r.operations} operations, ${r.cases} cases, ${r.failures} failed operations`);
}
console.log(`main tokens after the run: user ${result.tokensAfter.user}, admin ${result.tokensAfter.admin}`);
console.log(`${result.seconds.toFixed(0)} s; reports in reports/fuzz/`);
const problems = problemsOf(result);
for (const p of problems) console.error(p);
process.exit(problems.length ? 1 : 0);
