import { format } from 'date-fns';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, formatShort, localDateKey, spokenDay, squareLabel } from './format.ts';

// The browser's zone, with daylight-saving changes (8 March and 1 November 2026).
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});

/** Every 37 minutes over two years, through both changes of each: every month, weekday, hour and minute. */
const instants = () => {
  const from = Date.UTC(2025, 11, 25);
  return Array.from({ length: (2 * 366 * 24 * 60) / 37 }, (_, i) => new Date(from + i * 37 * 60_000));
};

describe('the screen formats write what date-fns writes with their patterns', () => {
  it('yyyy-MM-dd, EEEE d MMMM', () => {
    for (const date of instants()) {
      expect(localDateKey(date)).toBe(format(date, 'yyyy-MM-dd'));
      expect(spokenDay(date)).toBe(format(date, 'EEEE d MMMM'));
    }
  });

  it('d MMM yyyy HH:mm, d MMM HH:mm', () => {
    for (const date of instants()) {
      const iso = date.toISOString();
      expect(formatDateTime(iso)).toBe(format(date, 'd MMM yyyy HH:mm'));
      expect(formatShort(iso)).toBe(format(date, 'd MMM HH:mm'));
    }
  });

  it('in local time, the same instant on either side of a change', () => {
    // 1 November 2026, 01:30 happens twice in New York: EDT, then EST.
    expect(formatShort('2026-11-01T05:30:00Z')).toBe('1 Nov 01:30');
    expect(formatShort('2026-11-01T06:30:00Z')).toBe('1 Nov 01:30');
    expect(formatDateTime('2026-03-08T07:05:00Z')).toBe('8 Mar 2026 03:05');
    expect(localDateKey(new Date('2026-01-01T04:59:00Z'))).toBe('2025-12-31');
    expect(spokenDay(new Date(2026, 10, 3))).toBe('Tuesday 3 November');
    expect(
      squareLabel({ pass: false, completedTime: '2026-11-12T19:05:00Z', userName: 'ann@example.com' }),
    ).toBe('Fail, 12 Nov 14:05, by ann@example.com');
  });
});
