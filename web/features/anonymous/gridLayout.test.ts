import { describe, expect, it } from 'vitest';
import { gridLayout, MAX_QR, MIN_QR } from './gridLayout.ts';

describe('the anonymous boards grid layout', () => {
  it.each([
    [1, 2],
    [3, 2],
    [4, 2],
    [5, 3],
    [9, 3],
    [10, 4],
    [12, 4],
    [13, 5],
    [32, 11],
    [33, 12],
    [80, 12],
  ])('%i boards take SPEC §9 columns (%i) on a wide screen', (count, columns) => {
    const layout = gridLayout(count, 1872, 960);
    expect(layout.columns).toBe(columns);
    expect(layout.shownColumns).toBe(columns);
  });

  it('shows fewer columns on a phone, each code still scannable', () => {
    const layout = gridLayout(33, 358, 700);
    expect(layout.columns).toBe(12);
    expect(layout.shownColumns).toBe(3);
    expect(layout.qrSize).toBeGreaterThanOrEqual(MIN_QR);
  });

  it('fills the screen: a few boards get large codes, bounded by the height left', () => {
    const two = gridLayout(2, 1872, 900);
    expect(two.qrSize).toBeLessThanOrEqual(MAX_QR);
    expect(two.qrSize).toBeGreaterThan(500);
    // Two rows of three now share the height.
    const six = gridLayout(6, 1872, 900);
    expect(six.qrSize).toBeLessThan(two.qrSize);
    expect(six.qrSize).toBeGreaterThan(300);
  });

  it('never makes a code wider than its cell, nor smaller than scannable when the height runs out', () => {
    for (const count of [1, 4, 9, 10, 32, 33, 60]) {
      for (const [width, height] of [
        [358, 600],
        [1248, 700],
        [1872, 960],
        [3800, 2000],
      ] as const) {
        const layout = gridLayout(count, width, height);
        const cell = (width - 8 * (layout.shownColumns - 1)) / layout.shownColumns;
        expect(layout.qrSize).toBeLessThanOrEqual(cell - 18);
        expect(layout.qrSize).toBeGreaterThanOrEqual(Math.min(MIN_QR, cell - 18) - 1);
      }
    }
  });

  it('sets the names smaller as the cells narrow', () => {
    expect(gridLayout(2, 1872, 900).title.fontSize).toBe(24);
    expect(gridLayout(33, 1872, 960).title.fontSize).toBe(15);
    expect(gridLayout(33, 358, 700).title.fontSize).toBe(15);
  });

  it('has a sensible size before the grid is measured', () => {
    expect(gridLayout(5, 0, 0)).toMatchObject({ columns: 3, shownColumns: 3, qrSize: 160 });
  });
});
