import { describe, expect, it } from 'vitest';
import {
  isOverdue,
  isValidTimeZone,
  localDate,
  mayCompleteAction,
  mayManageAction,
  mayRaiseBoardAction,
  maySeeAction,
} from './actions.ts';
import { ROLES } from './roles.ts';

const none = { isAssignee: false, isRaiser: false };
const assignee = { isAssignee: true, isRaiser: false };
const raiser = { isAssignee: false, isRaiser: true };

describe('who sees and changes an action (decision 0670)', () => {
  it('hides every action from viewers, even their own', () => {
    for (const relation of [none, assignee, raiser]) {
      expect(maySeeAction('viewer', relation)).toBe(false);
      expect(mayCompleteAction('viewer', relation)).toBe(false);
      expect(mayManageAction('viewer', relation)).toBe(false);
    }
  });

  it('lets an evaluator see and close their own; edit and cancel only what they raised', () => {
    expect(maySeeAction('evaluator', none)).toBe(false);
    expect(maySeeAction('evaluator', assignee)).toBe(true);
    expect(maySeeAction('evaluator', raiser)).toBe(true);
    expect(mayCompleteAction('evaluator', assignee)).toBe(true);
    expect(mayManageAction('evaluator', assignee)).toBe(false);
    expect(mayManageAction('evaluator', raiser)).toBe(true);
  });

  it('lets administrators and owners do everything, and only them raise on a board', () => {
    for (const role of ['admin', 'owner'] as const) {
      expect(maySeeAction(role, none)).toBe(true);
      expect(mayManageAction(role, none)).toBe(true);
      expect(mayCompleteAction(role, none)).toBe(true);
    }
    expect(ROLES.filter(mayRaiseBoardAction)).toEqual(['admin', 'owner']);
  });
});

describe('due days', () => {
  const noonUtc = Date.UTC(2026, 0, 15, 12);

  it('reads the calendar day in the action’s time zone', () => {
    expect(localDate(noonUtc, 'UTC')).toBe('2026-01-15');
    expect(localDate(noonUtc, 'Pacific/Auckland')).toBe('2026-01-16');
    expect(localDate(Date.UTC(2026, 0, 15, 3), 'America/Los_Angeles')).toBe('2026-01-14');
  });

  it('calls an open action overdue only once its day has passed', () => {
    expect(isOverdue({ status: 'Open', dueDate: '2026-01-14' }, '2026-01-15')).toBe(true);
    expect(isOverdue({ status: 'Open', dueDate: '2026-01-15' }, '2026-01-15')).toBe(false);
    expect(isOverdue({ status: 'Done', dueDate: '2026-01-01' }, '2026-01-15')).toBe(false);
    expect(isOverdue({ status: 'Cancelled', dueDate: '2026-01-01' }, '2026-01-15')).toBe(false);
  });

  it('knows a real IANA zone from a made-up one', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });
});
