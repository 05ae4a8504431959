/**
 * The timer loop of the background workers (outbox dispatcher, webhook and mail workers): runs
 * one `pass` at a time; after each, waits the delay the pass returns, then runs again. `poke` asks
 * for a pass sooner; a poke that arrives while a pass runs is remembered, and the next pass starts
 * right after (the work it announced may have been committed after the pass looked). `stop` cancels
 * the timer and waits for the pass in progress.
 */
export class PollLoop {
  private timer: NodeJS.Timeout | null = null;
  private pendingDelay = Infinity;
  private running: Promise<void> | null = null;
  private stopped = true;
  private wanted = false;

  /**
   * @param pass one round of work; resolves with the delay (ms) before the next round.
   * @param onError a pass that throws is reported here, and the next runs after `errorDelayMs`.
   */
  constructor(
    private readonly pass: () => Promise<number>,
    private readonly onError: (err: unknown) => void,
    private readonly errorDelayMs = 1000,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** A pass within `delayMs` (sooner if one is already due sooner), or right after the running one. */
  poke(delayMs = 0): void {
    if (this.stopped) return;
    this.wanted = true;
    if (!this.running && !(this.timer && this.pendingDelay <= delayMs)) this.schedule(delayMs);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.pendingDelay = delay;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pendingDelay = Infinity;
      this.running = this.loop().finally(() => {
        this.running = null;
      });
    }, delay);
    this.timer.unref?.();
  }

  private async loop(): Promise<void> {
    this.wanted = false;
    let delay: number;
    try {
      delay = await this.pass();
    } catch (err) {
      this.onError(err);
      delay = this.errorDelayMs;
    }
    this.schedule(this.wanted ? 0 : delay);
  }
}
