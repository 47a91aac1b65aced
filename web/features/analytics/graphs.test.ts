import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTING,
  axisLabel,
  complianceCsv,
  compliancePeriod,
  csvFilename,
  graphTitle,
  modeOf,
  move,
  percent,
  periodProblem,
  periodText,
  plainText,
  renumber,
  reportCsv,
  settingInput,
  withReport,
  type Catalogue,
  type Report,
} from './graphs.ts';

const catalogue: Catalogue = {
  boards: [
    { id: 1, name: 'Line 1', isDeleted: false, cardIDs: [10] },
    { id: 2, name: 'Old line', isDeleted: true, cardIDs: [] },
  ],
  cards: [
    {
      id: 10,
      name: 'Start-up',
      isDeleted: false,
      cardItems: [
        {
          id: 100,
          type: 'pass_fail',
          content: '<p>Guards &amp; covers <b>in</b> place</p>',
          isDeleted: true,
        },
      ],
    },
  ],
};

describe('graph words', () => {
  it('names what a graph measures, deleted ones as such and unknown ones by id', () => {
    expect(graphTitle(catalogue, DEFAULT_SETTING)).toBe('All boards');
    expect(graphTitle(catalogue, { ...DEFAULT_SETTING, board_id: 1 })).toBe('Line 1 · All cards');
    expect(graphTitle(catalogue, { ...DEFAULT_SETTING, board_id: 2 })).toBe('Old line (deleted) · All cards');
    expect(graphTitle(catalogue, { ...DEFAULT_SETTING, board_id: 1, card_id: 10, card_item_id: 100 })).toBe(
      'Line 1 · Start-up · Guards & covers in place (deleted)',
    );
    expect(graphTitle(catalogue, { ...DEFAULT_SETTING, board_id: 7 })).toBe('Board 7 (deleted) · All cards');
  });

  it('reads periods with Now for -1, singular units and the mode the server answers', () => {
    expect(periodText(DEFAULT_SETTING)).toBe('30 days ago – Now');
    expect(
      periodText({
        ...DEFAULT_SETTING,
        start_number: 1,
        start_duration: 'Years',
        end_number: 1,
        end_duration: 'Months',
      }),
    ).toBe('1 year ago – 1 month ago');
    expect(modeOf(DEFAULT_SETTING)).toBe('TimeSeries');
    expect(modeOf({ ...DEFAULT_SETTING, time_division: 'Custom Interval' })).toBe('CustomIntervalBoards');
    expect(modeOf({ ...DEFAULT_SETTING, time_division: 'Custom Interval', board_id: 1 })).toBe(
      'CustomIntervalCards',
    );
    expect(modeOf({ ...DEFAULT_SETTING, time_division: 'Custom Interval', board_id: 1, card_id: 10 })).toBe(
      'CustomIntervalItems',
    );
  });

  it('refuses periods beyond their unit limit, below 1, or ending before they start', () => {
    expect(periodProblem(DEFAULT_SETTING)).toBeNull();
    expect(periodProblem({ ...DEFAULT_SETTING, start_number: 105, start_duration: 'Weeks' })).toEqual({
      field: 'start',
      message: 'A period can reach back at most 104 weeks.',
    });
    expect(periodProblem({ ...DEFAULT_SETTING, end_number: 11, end_duration: 'Years' })?.field).toBe('end');
    expect(periodProblem({ ...DEFAULT_SETTING, start_number: 0 })?.field).toBe('start');
    expect(periodProblem({ ...DEFAULT_SETTING, start_number: 2, end_number: 3 })?.message).toBe(
      'The period must start before it ends.',
    );
    expect(periodProblem({ ...DEFAULT_SETTING, start_number: -1 })?.message).toBe(
      'The period must start before it ends.',
    );
    expect(
      periodProblem({
        ...DEFAULT_SETTING,
        start_number: 2,
        start_duration: 'Months',
        end_number: 4,
        end_duration: 'Weeks',
      }),
    ).toBeNull();
  });

  it('refuses more periods of the time division than its limit, counting from the start of a unit', () => {
    // Monday 23 November 2026, in the test's zone.
    const now = new Date(2026, 10, 23, 10, 30);
    const check = (s: Partial<typeof DEFAULT_SETTING>) => periodProblem({ ...DEFAULT_SETTING, ...s }, now);
    expect(check({ start_number: 730 })).toBeNull();
    expect(check({ start_number: 23, start_duration: 'Months' })).toBeNull();
    expect(check({ start_number: 24, start_duration: 'Months' })?.message).toBe(
      'A period can reach back at most 730 days.',
    );
    // 4 years ago is 1 January 2022: 20 quarters to this one.
    expect(check({ start_number: 4, start_duration: 'Years', time_division: 'Quarters' })?.message).toBe(
      'A period can reach back at most 16 quarters.',
    );
    expect(check({ start_number: 16, start_duration: 'Quarters', time_division: 'Quarters' })).toBeNull();
    expect(check({ start_number: 104, start_duration: 'Weeks', time_division: 'Weeks' })).toBeNull();
    expect(check({ start_number: 24, start_duration: 'Months', time_division: 'Weeks' })?.message).toBe(
      'A period can reach back at most 104 weeks.',
    );
    expect(check({ start_number: 10, start_duration: 'Years', time_division: 'Custom Interval' })).toBeNull();
    // An end 'n units ago' runs to the end of that unit: 1 day ago to 1 day ago is yesterday.
    expect(check({ start_number: 1, end_number: 1 })).toBeNull();
    expect(check({ start_number: 1, end_number: 2 })?.message).toBe('The period must start before it ends.');
  });

  it('labels buckets as people read them', () => {
    expect(axisLabel('2026-11-03', 'TimeSeries', false)).toBe('3 Nov');
    expect(axisLabel('2026-11-03', 'TimeSeries', true)).toBe('3 Nov 2026');
    expect(axisLabel('2026-W05', 'TimeSeries', false)).toBe('W5 2026');
    expect(axisLabel('2026-02', 'TimeSeries', false)).toBe('Feb 2026');
    expect(axisLabel('2026-Q4', 'TimeSeries', false)).toBe('Q4 2026');
    expect(axisLabel('2026-11-03', 'CustomIntervalBoards', false)).toBe('2026-11-03');
    expect(percent(null)).toBe('–');
    expect(percent(0.875)).toBe('87.5%');
    expect(percent(2 / 3)).toBe('66.7%');
    expect(plainText('<p></p>')).toBe('Untitled item');
  });

  it('moves and renumbers graphs', () => {
    const list = [
      { graph_order: 5, n: 'a' },
      { graph_order: 9, n: 'b' },
      { graph_order: 11, n: 'c' },
    ];
    expect(renumber(move(list, 2, 0)).map((g) => `${g.n}${g.graph_order}`)).toEqual(['c0', 'a1', 'b2']);
    expect(move(list, 0, 3)).toEqual(list);
  });
});

describe('CSV of a graph', () => {
  it('writes a time series with its starts, counts and rates, empty buckets with an empty rate', () => {
    const report: Report = {
      mode: 'TimeSeries',
      measure: 'evaluations',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-03T00:00:00.000Z',
      rows: [
        {
          label: '2026-11-01',
          start: '2026-11-01T00:00:00.000Z',
          id: null,
          passed: 2,
          failed: 1,
          na: 0,
          passRate: 2 / 3,
        },
        {
          label: '2026-11-02',
          start: '2026-11-02T00:00:00.000Z',
          id: null,
          passed: 0,
          failed: 0,
          na: 0,
          passRate: null,
        },
      ],
    };
    expect(reportCsv(report)).toBe(
      'Period,Start,Passed,Failed,Pass rate (%)\r\n' +
        '2026-11-01,2026-11-01T00:00:00.000Z,2,1,66.7\r\n' +
        '2026-11-02,2026-11-02T00:00:00.000Z,0,0,\r\n',
    );
  });

  it('writes items with N/A and quotes names holding commas or quotes', () => {
    const report: Report = {
      mode: 'CustomIntervalItems',
      measure: 'items',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-03T00:00:00.000Z',
      rows: [{ label: 'Floor "dry", clean', start: null, id: 4, passed: 1, failed: 1, na: 2, passRate: 0.5 }],
    };
    expect(reportCsv(report)).toBe(
      'Item,ID,Passed,Failed,N/A,Pass rate (%)\r\n"Floor ""dry"", clean",4,1,1,2,50\r\n',
    );
    expect(csvFilename('Checkboard', 'Line 1 / A: "b"', new Date(2026, 10, 3, 9, 5, 7))).toBe(
      'Checkboard-Line 1 A b-20261103-090507.csv',
    );
  });
});

describe('schedule compliance graphs (decision 0704)', () => {
  const compliance = withReport(DEFAULT_SETTING, 'ScheduleCompliance');

  it('becomes a whole-period comparison of boards or cards, as bars or a table, and back', () => {
    expect(compliance).toEqual({
      ...DEFAULT_SETTING,
      report: 'ScheduleCompliance',
      time_division: 'Custom Interval',
      type: 'Bar',
    });
    const ofCard = {
      ...DEFAULT_SETTING,
      board_id: 1,
      card_id: 10,
      card_item_id: 100,
      type: 'Table' as const,
    };
    expect(withReport(ofCard, 'ScheduleCompliance')).toMatchObject({
      board_id: 1,
      card_id: -1,
      card_item_id: -1,
      type: 'Table',
    });
    expect(withReport(compliance, 'Evaluations')).toEqual({ ...DEFAULT_SETTING, report: 'Evaluations' });
    // The report is saved with the graph; a graph without one stays as SPEC's setting.
    expect(settingInput({ ...compliance, id: 5 })).toEqual(compliance);
    expect(settingInput({ ...DEFAULT_SETTING, id: 5 } as never)).toEqual(DEFAULT_SETTING);
  });

  it('is titled by what it compares', () => {
    expect(graphTitle(catalogue, compliance)).toBe('Schedule compliance · All boards');
    expect(graphTitle(catalogue, { ...compliance, board_id: 1 })).toBe(
      'Schedule compliance · Line 1 by card',
    );
  });

  it('reaches back at most 365 days, 51 weeks, 11 months or 3 quarters', () => {
    const message =
      'A schedule compliance graph can reach back at most 365 days, 51 weeks, 11 months or 3 quarters.';
    expect(periodProblem({ ...compliance, start_number: 365 })).toBeNull();
    expect(periodProblem({ ...compliance, start_number: 366 })).toEqual({ field: 'start', message });
    expect(periodProblem({ ...compliance, start_number: 51, start_duration: 'Weeks' })).toBeNull();
    expect(periodProblem({ ...compliance, start_number: 52, start_duration: 'Weeks' })?.message).toBe(
      message,
    );
    expect(periodProblem({ ...compliance, start_number: 12, start_duration: 'Months' })?.message).toBe(
      message,
    );
    expect(periodProblem({ ...compliance, start_number: 1, start_duration: 'Years' })?.message).toBe(message);
    expect(periodProblem({ ...compliance, start_number: 2, end_number: 3 })?.message).toBe(
      'The period must start before it ends.',
    );
  });

  it('asks for the period from the start of its first local day to the next whole hour, or to the end of its last unit', () => {
    const now = new Date(2026, 10, 25, 10, 30);
    const nextHour = new Date((Math.floor(now.getTime() / 3_600_000) + 1) * 3_600_000).toISOString();
    expect(compliancePeriod({ ...compliance, start_number: 30 }, now)).toEqual({
      start: new Date(2026, 9, 26).toISOString(),
      end: nextHour,
    });
    expect(
      compliancePeriod(
        { ...compliance, start_number: 2, start_duration: 'Months', end_number: 1, end_duration: 'Months' },
        now,
      ),
    ).toEqual({ start: new Date(2026, 8, 1).toISOString(), end: new Date(2026, 10, 1).toISOString() });
    // The longest period stays within the 366 days get-schedule-compliance counts.
    const longest = compliancePeriod({ ...compliance, start_number: 365 }, new Date(2026, 11, 31, 23, 59));
    expect(Date.parse(longest.end) - Date.parse(longest.start)).toBeLessThanOrEqual(366 * 86_400_000);
    expect(Date.parse(longest.start)).toBeGreaterThanOrEqual(new Date(2025, 11, 31).getTime());
  });

  it('writes its figures as CSV with the whole last', () => {
    expect(
      complianceCsv(
        {
          rows: [{ id: 3, name: 'Line, 2', done: 2, late: 1, missed: 1, rate: 0.5 }],
          total: { done: 2, late: 1, missed: 1, rate: 0.5 },
          timeZone: 'Europe/London',
        },
        false,
      ),
    ).toBe('Board,ID,Done on time,Late,Missed,Compliance (%)\r\n"Line, 2",3,2,1,1,50\r\nAll,,2,1,1,50\r\n');
  });
});
