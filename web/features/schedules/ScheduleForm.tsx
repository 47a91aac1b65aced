/**
 * Add or edit a schedule (administrators): the board and card, how it repeats (every day, on weekdays,
 * every N weeks, monthly on a day, or a custom iCalendar rule), from and until when, the window (the
 * whole day unless set) and the assignees. Days and times are the organisation's (its zone is shown).
 */
import {
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { api, type Schedule } from '../../../common/api/index.ts';
import {
  WEEKDAYS,
  WEEKDAY_LABELS,
  describeRule,
  normaliseRule,
  presetOfRule,
  ruleOfPreset,
  scheduleMessages,
  type RulePreset,
  type Weekday,
} from '../../../common/schedules.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { messageOf } from '../../lib/api.ts';
import { applyServerError } from '../../lib/formErrors.ts';
import { useBoardCards, useBoards } from '../../shared/api/boards.ts';
import { useAddSchedule, useEditSchedule, useScheduleAssignees } from './api.ts';

type Kind = RulePreset['kind'];

const KINDS: { value: Kind; label: string }[] = [
  { value: 'daily', label: 'Every day' },
  { value: 'weekdays', label: 'On certain weekdays' },
  { value: 'weeks', label: 'Every few weeks' },
  { value: 'monthly', label: 'Monthly on a day' },
  { value: 'custom', label: 'Custom rule (iCalendar RRULE)' },
];

interface Values {
  boardID: string;
  cardID: string;
  kind: Kind;
  days: Weekday[];
  every: number | string;
  monthDay: number | string;
  custom: string;
  startDate: string;
  endDate: string;
  wholeDay: boolean;
  windowStart: string;
  windowEnd: string;
  assigneeIDs: string[];
}

function ruleOf(values: Values): string {
  switch (values.kind) {
    case 'daily':
      return ruleOfPreset({ kind: 'daily' });
    case 'weekdays':
      return ruleOfPreset({ kind: 'weekdays', days: values.days });
    case 'weeks':
      return ruleOfPreset({ kind: 'weeks', every: Number(values.every), days: values.days });
    case 'monthly':
      return ruleOfPreset({ kind: 'monthly', day: Number(values.monthDay) });
    case 'custom':
      return ruleOfPreset({ kind: 'custom', rule: values.custom });
  }
}

function initialValues(schedule: Schedule | undefined, today: string): Values {
  const preset = schedule ? presetOfRule(schedule.rule) : ({ kind: 'daily' } as RulePreset);
  const wholeDay = !schedule || (schedule.windowStart === '00:00' && schedule.windowEnd === '24:00');
  return {
    boardID: schedule ? String(schedule.boardID) : '',
    cardID: schedule ? String(schedule.cardID) : '',
    kind: preset.kind,
    days: preset.kind === 'weekdays' || preset.kind === 'weeks' ? preset.days : ['MO'],
    every: preset.kind === 'weeks' ? preset.every : 2,
    monthDay: preset.kind === 'monthly' ? preset.day : 1,
    custom: preset.kind === 'custom' ? preset.rule : '',
    startDate: schedule?.startDate ?? today,
    endDate: schedule?.endDate ?? '',
    wholeDay,
    windowStart: wholeDay ? '06:00' : schedule!.windowStart,
    windowEnd: wholeDay ? '10:00' : schedule!.windowEnd,
    assigneeIDs: schedule?.assignees.map((a) => String(a.id)) ?? [],
  };
}

function ScheduleFormBody({
  schedule,
  timeZone,
  today,
  onClose,
}: {
  schedule?: Schedule;
  timeZone: string;
  today: string;
  onClose: () => void;
}) {
  const boards = useBoards();
  const assignees = useScheduleAssignees(true);
  const add = useAddSchedule();
  const edit = useEditSchedule();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: initialValues(schedule, today),
    validate: {
      boardID: (v) => (v ? null : 'Choose a board.'),
      cardID: (v) => (v ? null : 'Choose a card of the board.'),
      days: (v, values) =>
        (values.kind === 'weekdays' || values.kind === 'weeks') && v.length === 0
          ? 'Choose at least one weekday.'
          : null,
      custom: (_v, values) =>
        values.kind === 'custom' && normaliseRule(ruleOf(values)) === null ? scheduleMessages.rule : null,
      monthDay: (v, values) =>
        values.kind === 'monthly' && !(Number(v) >= 1 && Number(v) <= 31)
          ? 'Enter a day of the month, 1 to 31.'
          : null,
      every: (v, values) =>
        values.kind === 'weeks' && !(Number(v) >= 2 && Number(v) <= 52)
          ? 'Enter a number of weeks, 2 to 52.'
          : null,
      startDate: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? null : 'Enter the first day.'),
    },
  });
  const boardID = form.values.boardID ? Number(form.values.boardID) : null;
  const cards = useBoardCards(boardID);
  const call = schedule ? api.editSchedule : api.addSchedule;
  const rule = ruleOf(form.values);
  const valid = normaliseRule(rule) !== null;

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const fields = {
      rule: ruleOf(values),
      startDate: values.startDate,
      endDate: values.endDate || null,
      windowStart: values.wholeDay ? null : values.windowStart,
      windowEnd: values.wholeDay ? null : values.windowEnd,
      assigneeIDs: values.assigneeIDs.map(Number),
    };
    try {
      if (schedule) await edit.mutateAsync({ scheduleID: schedule.id, ...fields });
      else
        await add.mutateAsync({ boardID: Number(values.boardID), cardID: Number(values.cardID), ...fields });
      onClose();
    } catch (error) {
      setFailure(applyServerError(error, call, form.setFieldError));
    }
  });

  const boardOptions = [
    { value: '', label: 'Choose a board', disabled: true },
    ...(boards.data?.boards ?? []).map((b) => ({ value: String(b.id), label: b.name })),
  ];
  const cardOptions = [
    { value: '', label: 'Choose a card', disabled: true },
    ...(cards.data?.cards ?? []).map((c) => ({ value: String(c.id), label: c.name })),
  ];
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Days and times are in the organisation’s time zone, {timeZone}.
        </Text>
        <Group grow align="flex-start">
          <NativeSelect
            label="Board"
            required
            disabled={!!schedule}
            data={boardOptions}
            {...form.getInputProps('boardID')}
            onChange={(event) => {
              form.setFieldValue('boardID', event.currentTarget.value);
              form.setFieldValue('cardID', '');
            }}
          />
          <NativeSelect
            label="Card"
            required
            disabled={!!schedule || boardID === null}
            data={cardOptions}
            {...form.getInputProps('cardID')}
          />
        </Group>
        <NativeSelect label="Repeat" data={KINDS} {...form.getInputProps('kind')} />
        {form.values.kind === 'weeks' && (
          <NumberInput label="Every how many weeks" min={2} max={52} {...form.getInputProps('every')} />
        )}
        {(form.values.kind === 'weekdays' || form.values.kind === 'weeks') && (
          <Checkbox.Group label="On" {...form.getInputProps('days')}>
            <Group gap="sm" mt={4}>
              {WEEKDAYS.map((day) => (
                <Checkbox key={day} value={day} label={WEEKDAY_LABELS[day]} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
        {form.values.kind === 'monthly' && (
          <NumberInput label="Day of the month" min={1} max={31} {...form.getInputProps('monthDay')} />
        )}
        {form.values.kind === 'custom' && (
          <TextInput
            label="Rule"
            description="An iCalendar RRULE over days, e.g. FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1 (the first Monday)."
            {...form.getInputProps('custom')}
          />
        )}
        <Text size="sm" data-testid="rule-text">
          {valid ? `Repeats ${describeRule(rule)}.` : 'The rule is not complete yet.'}
        </Text>
        <Group grow align="flex-start">
          <TextInput label="From" type="date" required {...form.getInputProps('startDate')} />
          <TextInput label="Until (optional)" type="date" {...form.getInputProps('endDate')} />
        </Group>
        <Checkbox label="The whole day" {...form.getInputProps('wholeDay', { type: 'checkbox' })} />
        {!form.values.wholeDay && (
          <Group grow align="flex-start">
            <TextInput label="Window opens" type="time" {...form.getInputProps('windowStart')} />
            <TextInput label="Window closes" type="time" {...form.getInputProps('windowEnd')} />
          </Group>
        )}
        <Checkbox.Group label="Assigned to" {...form.getInputProps('assigneeIDs')}>
          <Stack gap={6} mt={4}>
            {(assignees.data?.assignees ?? []).map((member) => (
              <Checkbox key={member.id} value={String(member.id)} label={member.email} />
            ))}
          </Stack>
        </Checkbox.Group>
        <ErrorText message={assignees.error && messageOf(assignees.error, api.getActionAssignees)} />
        <ErrorText message={failure} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending || edit.isPending}>
            {schedule ? 'Save' : 'Add schedule'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function ScheduleFormModal({
  opened,
  schedule,
  timeZone,
  today,
  onClose,
}: {
  opened: boolean;
  schedule?: Schedule;
  timeZone: string;
  today: string;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={schedule ? 'Edit schedule' : 'Add schedule'}
      size="lg"
      fullScreen={phone}
    >
      {opened && <ScheduleFormBody schedule={schedule} timeZone={timeZone} today={today} onClose={onClose} />}
    </Modal>
  );
}
