/**
 * Deadlines of one length for many sockets, on one timer: a gateway accepting thousands of connections
 * a second would otherwise create and cancel a timer per connection for each of its deadlines (the
 * pending caps, a head, an exit's connect). Every deadline here has the same length, so the order they
 * were set in is the order they fall due: a Map keeps that order, a sweep stops at the first one not
 * yet due, and cancelling is a delete. A deadline fires at most `granularity` late.
 */
export class Deadlines<K extends object> {
  private readonly due = new Map<K, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly granularityMs: number;

  constructor(
    private readonly lengthMs: number,
    private readonly onExpired: (key: K) => void,
  ) {
    // Short deadlines (tests) stay close to their length; long ones are swept four times a second.
    this.granularityMs = Math.max(5, Math.min(250, Math.floor(lengthMs / 10)));
  }

  get size(): number {
    return this.due.size;
  }

  /** Arms `key`'s deadline `lengthMs` from now; one already armed is kept as it is. */
  set(key: K): void {
    if (this.due.has(key)) {
      return;
    }
    this.due.set(key, Date.now() + this.lengthMs);
    if (this.timer === undefined) {
      this.timer = setInterval(this.sweep, this.granularityMs);
      this.timer.unref();
    }
  }

  /** Cancels `key`'s deadline, if it has one. */
  delete(key: K): void {
    this.due.delete(key);
  }

  private readonly sweep = (): void => {
    const now = Date.now();
    for (const [key, at] of this.due) {
      if (at > now) {
        return;
      }
      this.due.delete(key);
      this.onExpired(key);
    }
    if (this.due.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  };
}
