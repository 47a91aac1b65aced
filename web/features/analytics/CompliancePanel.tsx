/**
 * Schedule compliance (issue 13, docs/decisions/0703): a report of its own on the analytics screen, done on
 * time over due (Done, Late and Missed occurrences) per board, or per card of one board, over the last
 * 7 to 365 days, drawn as bars with the figures in a table beside them. Counted on the server in the
 * organisation's zone.
 */
import { BarChart } from '@mantine/charts';
import { NativeSelect, Paper, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { callApi, messageOf } from '../../lib/api.ts';
import { useBoards } from '../../shared/api/boards.ts';
import { scheduleKeys } from '../../shared/api/schedules.ts';

const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '365', label: 'Last 365 days' },
];

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

export function CompliancePanel() {
  const boards = useBoards();
  const [days, setDays] = useState('30');
  const [boardID, setBoardID] = useState('');
  // The range ends at the next whole hour, taken when the panel opens: a stable key between renders.
  const [hour] = useState(() => Math.floor(Date.now() / 3_600_000));
  const range = useMemo(() => {
    const end = (hour + 1) * 3_600_000;
    return {
      start: new Date(end - Number(days) * 86_400_000).toISOString(),
      end: new Date(end).toISOString(),
      ...(boardID ? { boardID: Number(boardID) } : {}),
    };
  }, [hour, days, boardID]);
  const report = useQuery({
    queryKey: scheduleKeys.compliance(range),
    queryFn: () => callApi(api.getScheduleCompliance, range),
    staleTime: 60_000,
  });
  const rows = report.data?.rows ?? [];
  const what = boardID ? 'Card' : 'Board';
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="compliance-heading"
      data-testid="compliance"
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Title order={2} size="h4" id="compliance-heading">
              Schedule compliance
            </Title>
            <Text size="sm" c="dimmed">
              Scheduled checks done on time, of those due{report.data ? ` (${report.data.timeZone})` : ''}.
            </Text>
          </Stack>
          <Group gap="xs" align="flex-end">
            <NativeSelect
              label="Period"
              data={PERIODS}
              value={days}
              onChange={(e) => setDays(e.currentTarget.value)}
            />
            <NativeSelect
              label="Boards"
              value={boardID}
              onChange={(e) => setBoardID(e.currentTarget.value)}
              data={[
                { value: '', label: 'All boards' },
                ...(boards.data?.boards ?? []).map((b) => ({ value: String(b.id), label: b.name })),
              ]}
            />
          </Group>
        </Group>
        <ErrorText message={report.error && messageOf(report.error, api.getScheduleCompliance)} />
        {report.isPending ? (
          <Loading label="Loading compliance" />
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No scheduled checks were due in this period.
          </Text>
        ) : (
          <>
            <BarChart
              h={220}
              data={rows.map((r) => ({
                name: r.name,
                Compliance: r.rate === null ? 0 : Math.round(r.rate * 1000) / 10,
              }))}
              dataKey="name"
              series={[{ name: 'Compliance', color: 'teal.7' }]}
              yAxisProps={{ domain: [0, 100] }}
              unit="%"
              role="img"
              aria-label={`Compliance by ${what.toLowerCase()}, in the table below`}
              barProps={{ isAnimationActive: false }}
            />
            <Table verticalSpacing={4} fz="sm" data-testid="compliance-table">
              <caption className="visually-hidden">Schedule compliance by {what.toLowerCase()}</caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{what}</Table.Th>
                  <Table.Th scope="col">Done on time</Table.Th>
                  <Table.Th scope="col">Late</Table.Th>
                  <Table.Th scope="col">Missed</Table.Th>
                  <Table.Th scope="col">Compliance</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Th scope="row" fw={500}>
                      {r.name}
                    </Table.Th>
                    <Table.Td>{r.done}</Table.Td>
                    <Table.Td>{r.late}</Table.Td>
                    <Table.Td>{r.missed}</Table.Td>
                    <Table.Td>{percent(r.rate)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th scope="row">All</Table.Th>
                  <Table.Td>{report.data!.total.done}</Table.Td>
                  <Table.Td>{report.data!.total.late}</Table.Td>
                  <Table.Td>{report.data!.total.missed}</Table.Td>
                  <Table.Td>{percent(report.data!.total.rate)}</Table.Td>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </>
        )}
      </Stack>
    </Paper>
  );
}
