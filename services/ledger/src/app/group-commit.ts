/**
 * Collects writes that arrive while earlier ones are being committed and commits them
 * together (group commit): under load, one transaction carries many commands, so the cost of
 * a transaction is shared; alone, a write is committed at once.
 */
export class GroupCommitter<T> {
  private pending: Array<{ item: T; settle: (committed: boolean) => void; fail: (e: unknown) => void }> = [];
  private inFlight = 0;

  /**
   * @param commit writes a batch in one transaction and returns, per item, whether it took
   *   effect (false: a version conflict, the caller decides again); throwing fails the batch.
   */
  constructor(
    private readonly commit: (items: T[]) => Promise<boolean[]>,
    private readonly options: { maxBatch: number; maxInFlight: number },
  ) {}

  submit(item: T): Promise<boolean> {
    return new Promise((settle, fail) => {
      this.pending.push({ item, settle, fail });
      this.pump();
    });
  }

  private pump(): void {
    while (this.pending.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.pending.splice(0, this.options.maxBatch);
      this.inFlight++;
      this.commit(batch.map((b) => b.item))
        .then(
          (results) =>
            batch.forEach((b, i) => {
              b.settle(results[i] === true);
            }),
          (error) =>
            batch.forEach((b) => {
              b.fail(error);
            }),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }
}
