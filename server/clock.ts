/** Time as the application sees it; tests inject a clock they can move. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class FakeClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now() {
    return this.current;
  }
  advance(ms: number) {
    this.current += ms;
  }
  set(ms: number) {
    this.current = ms;
  }
}
