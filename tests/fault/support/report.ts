// The suite's table: one row per fault, printed at the end of the run (and kept in
// docs/benchmarks.md with the date and the machine).
export interface FaultRow {
  fault: string;
  traffic: string;
  invariants: number;
  violations: number;
  recoverySeconds: number;
}

export function faultTable(rows: FaultRow[]): string {
  const head = ['fault', 'traffic sent', 'invariants checked', 'violations', 'time to recover'];
  const cells = rows.map((r) => [
    r.fault,
    r.traffic,
    String(r.invariants),
    String(r.violations),
    `${r.recoverySeconds.toFixed(1)} s`,
  ]);
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...cells.map((c) => `| ${c.join(' | ')} |`),
  ].join('\n');
}
