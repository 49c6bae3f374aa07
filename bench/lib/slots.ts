/**
 * At most `size` holders at once; the others wait in arrival order. The soak case keeps its open event
 * streams under the API's per-workspace cap with it (`SVC_MAX_STREAMS`, docs/api/limits.md), as the key
 * pool keeps requests under the per-key rate limit: the benchmark measures the service, not its limits.
 */
export class Slots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];
  /** How many acquisitions had to wait for a slot. */
  waits = 0;

  constructor(private readonly size: number) {}

  async acquire(): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      return;
    }
    this.waits++;
    // the releasing holder hands its slot over: `held` stays as it is
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }
}
