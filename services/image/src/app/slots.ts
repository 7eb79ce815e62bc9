/** At most `size` jobs at once on this worker: the engine's memory budget is per job. */
export class Slots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  /** Slots running a job now. */
  get busy(): number {
    return this.used;
  }

  tryAcquire(): boolean {
    if (this.used >= this.size) return false;
    this.used++;
    return true;
  }

  async acquire(): Promise<void> {
    if (this.tryAcquire()) return;
    await new Promise<void>((ok) => this.waiting.push(ok));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.used--;
  }
}
