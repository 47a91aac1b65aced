/**
 * The home tab "Schedule" (issue 13, docs/decisions/0703): the checks due today and this week (Sunday to
 * Saturday, in the organisation's zone), each with its status in words; an evaluator sees those assigned
 * to them, an administrator every one, and the schedules themselves with Add, Edit and Delete.
 */
import {
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Schedule, type ScheduleOccurrence } from '../../../common/api/index.ts';
import { roleOf } from '../../../common/roles.ts';
import { addDays, floatingDay, localDay, managesSchedules, zonedInstant } from '../../../common/schedules.ts';
import { EVALUATIONS_REFRESH_MS } from '../../../common/constants.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { useUserData } from '../../lib/queries.ts';
import { dayText, useOccurrences, windowText } from '../../shared/api/schedules.ts';
import { useDeleteSchedule, useSchedules } from './api.ts';
import { ScheduleFormModal } from './ScheduleForm.tsx';

const STATUS_COLOURS: Record<ScheduleOccurrence['status'], string> = {
  Due: 'gray',
  Done: 'green',
  Late: 'yellow',
  Missed: 'red',
};

function StatusBadge({ status }: { status: ScheduleOccurrence['status'] }) {
  // The word is the signal; the colour only repeats it.
  return (
    <Badge variant={status === 'Due' ? 'outline' : 'light'} color={STATUS_COLOURS[status]} tt="none">
      {status}
    </Badge>
  );
}

function OccurrenceTable({
  org,
  occurrences,
  timeZone,
  caption,
  showDay,
}: {
  org: string;
  occurrences: ScheduleOccurrence[];
  timeZone: string;
  caption: string;
  showDay: boolean;
}) {
  if (!occurrences.length)
    return (
      <Text size="sm" c="dimmed">
        Nothing scheduled.
      </Text>
    );
  return (
    <Table striped verticalSpacing="xs" data-testid="occurrences">
      <caption className="visually-hidden">{caption}</caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">When</Table.Th>
          <Table.Th scope="col">Check</Table.Th>
          <Table.Th scope="col">Status</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {occurrences.map((o) => (
          <Table.Tr key={`${o.scheduleID}-${o.start}`} data-status={o.status}>
            <Table.Td>
              {showDay ? `${dayText(o.date)}, ` : ''}
              {windowText(o, timeZone)}
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              {o.cardName} on{' '}
              <Anchor component={Link} to={paths.board(org, o.boardName)} underline="always">
                {o.boardName}
              </Anchor>
              {o.assignedToMe && (
                <Text span size="xs" c="dimmed">
                  {' '}
                  (yours)
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <StatusBadge status={o.status} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function SchedulesList({ timeZone, today }: { timeZone: string; today: string }) {
  const schedules = useSchedules();
  const remove = useDeleteSchedule();
  const [form, setForm] = useState<{ schedule?: Schedule } | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const list = schedules.data?.schedules ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h3">
          Schedules
        </Title>
        <Button onClick={() => setForm({})}>Add schedule</Button>
      </Group>
      <ErrorText message={schedules.error && messageOf(schedules.error, api.getSchedules)} />
      {schedules.isPending ? (
        <Loading label="Loading schedules" />
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          No schedules yet. Add one to say when a card is due on a board.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" data-testid="schedules">
            <caption className="visually-hidden">Schedules</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Board</Table.Th>
                <Table.Th scope="col">Card</Table.Th>
                <Table.Th scope="col">Repeats</Table.Th>
                <Table.Th scope="col">Window</Table.Th>
                <Table.Th scope="col">Assigned to</Table.Th>
                <Table.Th scope="col">
                  <span className="visually-hidden">Changes</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>{s.boardName}</Table.Td>
                  <Table.Td>{s.cardName}</Table.Td>
                  <Table.Td>
                    {s.ruleText}, from {s.startDate}
                    {s.endDate ? ` until ${s.endDate}` : ''}
                  </Table.Td>
                  <Table.Td>
                    {s.windowStart === '00:00' && s.windowEnd === '24:00'
                      ? 'all day'
                      : `${s.windowStart}–${s.windowEnd}`}
                  </Table.Td>
                  <Table.Td>{s.assignees.map((a) => a.email).join(', ') || '—'}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Edit the schedule of ${s.cardName} on ${s.boardName}`}
                        onClick={() => setForm({ schedule: s })}
                      >
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        color="red"
                        aria-label={`Delete the schedule of ${s.cardName} on ${s.boardName}`}
                        onClick={() => setDeleting(s)}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ScheduleFormModal
        opened={form !== null}
        schedule={form?.schedule}
        timeZone={timeZone}
        today={today}
        onClose={() => setForm(null)}
      />
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete schedule">
        <Stack gap="sm">
          <Text>
            Delete the schedule of {deleting?.cardName} on {deleting?.boardName}? Its past occurrences are no
            longer shown; the evaluations stay.
          </Text>
          <ErrorText message={remove.error && messageOf(remove.error, api.deleteSchedule)} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={async () => {
                await remove.mutateAsync({ scheduleID: deleting!.id });
                setDeleting(null);
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** The current time, renewed every `intervalMs`, so that "today" moves on at midnight. */
function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function ScheduleTab() {
  const { org = '' } = useParams();
  const { data: user } = useUserData();
  const role = user ? roleOf(user) : 'viewer';
  const timeZone = user?.timeZone ?? 'UTC';
  const now = useNow(EVALUATIONS_REFRESH_MS);
  const today = localDay(now.getTime(), timeZone);
  // The week from Sunday, as the board's calendars; its range changes only when the day does.
  const range = useMemo(() => {
    const weekStart = addDays(today, -new Date(floatingDay(today)).getUTCDay());
    return {
      start: new Date(zonedInstant(weekStart, 0, timeZone)).toISOString(),
      end: new Date(zonedInstant(addDays(weekStart, 7), 0, timeZone)).toISOString(),
    };
  }, [today, timeZone]);
  const occurrences = useOccurrences(range, !!user);
  const list = occurrences.data?.occurrences ?? [];
  const todays = list.filter((o) => o.date === today);
  const week = list.filter((o) => o.date !== today);

  return (
    <Container size="lg" px="md" py="md">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h2">
            Schedule
          </Title>
          <Text size="sm" c="dimmed">
            {managesSchedules(role) ? 'Every scheduled check' : 'The checks assigned to you'}, in the
            organisation’s time zone ({timeZone}).
          </Text>
        </Stack>
        <ErrorText message={occurrences.error && messageOf(occurrences.error, api.getScheduleOccurrences)} />
        {occurrences.isPending ? (
          <Loading label="Loading the schedule" />
        ) : (
          <>
            <Paper withBorder p="md" component="section" aria-labelledby="schedule-today">
              <Title order={2} size="h3" id="schedule-today" mb="xs">
                Today
              </Title>
              <OccurrenceTable
                org={org}
                occurrences={todays}
                timeZone={timeZone}
                caption="Checks due today"
                showDay={false}
              />
            </Paper>
            <Paper withBorder p="md" component="section" aria-labelledby="schedule-week">
              <Title order={2} size="h3" id="schedule-week" mb="xs">
                This week
              </Title>
              <OccurrenceTable
                org={org}
                occurrences={week}
                timeZone={timeZone}
                caption="The week's other checks"
                showDay
              />
            </Paper>
          </>
        )}
        {managesSchedules(role) && <SchedulesList timeZone={timeZone} today={today} />}
      </Stack>
    </Container>
  );
}
