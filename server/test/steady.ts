/** Resolves, with the value, once `value()` has not changed for `quietMs` (a stream's reads, a counter). */
export async function steady(value: () => number, quietMs = 300): Promise<number> {
  let before = -1;
  while (before !== value()) {
    before = value();
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
  return before;
}
