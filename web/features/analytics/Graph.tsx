/**
 * One graph of a dashboard: its figures from get-report (in the browser's time zone) drawn as a line, bars
 * or a table, with a tooltip and a legend, and its own loading, empty and error states; a schedule
 * compliance graph's from get-schedule-compliance, as bars over a table of the figures, or the table
 * (decision 0704).
 */
import { BarChart, CompositeChart, LineChart } from '@mantine/charts';
import { Button, Center, Group, Paper, ScrollArea, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { memo, useMemo } from 'react';
import type { DashboardSettingInput } from '../../../common/api/index.ts';
import { api } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { messageOf } from '../../lib/api.ts';
import type { useComplianceReport, useReport } from './api.ts';
import {
  NO_COMPLIANCE,
  NO_EVALUATIONS,
  ROW_HEADINGS,
  axisLabel,
  countsNA,
  isEmpty,
  percent,
  type Compliance,
  type Report,
} from './graphs.ts';
import classes from './Analytics.module.css';

const PHONE = '(max-width: 36em)';

type Datum = {
  name: string;
  label: string;
  Passed: number;
  Failed: number;
  'N/A': number;
  'Pass rate': number | null;
};

function chartData(report: Report): Datum[] {
  const years = new Set(report.rows.map((r) => r.label.slice(0, 4)));
  return report.rows.map((row) => ({
    name: axisLabel(row.label, report.mode, years.size > 1),
    label: row.label,
    Passed: row.passed,
    Failed: row.failed,
    'N/A': row.na,
    'Pass rate': row.passRate === null ? null : Math.round(row.passRate * 1000) / 10,
  }));
}

/** The tooltip of both charts: every figure of the hovered bucket, board, card or item. */
function Tip({
  active,
  payload,
  withNA,
}: {
  active?: boolean;
  payload?: { payload?: Datum }[];
  withNA: boolean;
}) {
  const datum = payload?.[0]?.payload;
  if (!active || !datum) return null;
  return (
    <Paper withBorder shadow="md" p="xs" className={classes.tooltip}>
      <Text size="sm" fw={700}>
        {datum.name}
      </Text>
      <Text size="sm">Pass rate: {datum['Pass rate'] === null ? '–' : `${datum['Pass rate']}%`}</Text>
      <Text size="sm">Passed: {datum.Passed}</Text>
      <Text size="sm">Failed: {datum.Failed}</Text>
      {withNA && <Text size="sm">N/A: {datum['N/A']}</Text>}
    </Paper>
  );
}

function ReportTable({ report, caption }: { report: Report; caption: string }) {
  const withNA = countsNA(report);
  const phone = useMediaQuery(PHONE) ?? false;
  return (
    <ScrollArea.Autosize
      mah={360}
      type="auto"
      className={classes.tableScroll}
      // Long tables scroll: the region takes the keyboard's focus to scroll with the arrows.
      viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': caption }}
    >
      <Table
        striped
        highlightOnHover
        stickyHeader
        withTableBorder
        fz={phone ? 'xs' : 'sm'}
        horizontalSpacing={phone ? 6 : 'xs'}
        className={classes.table}
        data-testid="report-table"
      >
        <Table.Caption className={classes.visuallyHidden}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{ROW_HEADINGS[report.mode]}</Table.Th>
            <Table.Th scope="col" ta="right">
              Passed
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Failed
            </Table.Th>
            {withNA && (
              <Table.Th scope="col" ta="right">
                N/A
              </Table.Th>
            )}
            <Table.Th scope="col" ta="right">
              Pass rate
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.rows.map((row) => (
            <Table.Tr key={`${row.label}-${row.id ?? row.start}`}>
              <Table.Th scope="row" fw={400}>
                {row.label}
              </Table.Th>
              <Table.Td ta="right">{row.passed}</Table.Td>
              <Table.Td ta="right">{row.failed}</Table.Td>
              {withNA && <Table.Td ta="right">{row.na}</Table.Td>}
              <Table.Td ta="right">{percent(row.passRate)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

type Series = { name: string; color: string };
const PASS_RATE: Series = { name: 'Pass rate', color: 'blue.6' };
const PASSED: Series = { name: 'Passed', color: 'teal.6' };
const FAILED: Series = { name: 'Failed', color: 'red.6' };
const NA: Series = { name: 'N/A', color: 'gray.6' };
const LEGEND_HEIGHT = 28;

/**
 * The legend, drawn beside the chart rather than inside it: recharts measures an inner legend and then
 * lays the chart out again, which doubles the work of 24 graphs.
 */
function Legend({ series }: { series: Series[] }) {
  return (
    <Group gap="md" justify="flex-end" mih={LEGEND_HEIGHT} className={classes.legend}>
      {series.map((s) => (
        <Group key={s.name} gap={6} wrap="nowrap">
          <span
            className={classes.swatch}
            style={{ background: `var(--mantine-color-${s.color.replace('.', '-')})` }}
            aria-hidden="true"
          />
          <Text size="sm">{s.name}</Text>
        </Group>
      ))}
    </Group>
  );
}

const percentAxis = { domain: [0, 100], ticks: [0, 25, 50, 75, 100], unit: '%', width: 52 };
const countAxis = { allowDecimals: false, width: 40 };

/**
 * Line: the pass rate (%), one point per bucket, gaps where nothing was decided. Bar: the counts stacked
 * (left axis) with the pass rate over them (right axis, %). Either way the tooltip gives every figure of the
 * bucket, board, card or item. Across boards, cards or items the pass rates are points, not a line: there is
 * nothing between two boards. Drawn again only when its figures, type, title or size change (memo): a graph
 * whose neighbours' figures arrive is left alone.
 */
const Chart = memo(function Chart({
  report,
  type,
  title,
  height,
}: {
  report: Report;
  type: 'Line' | 'Bar';
  title: string;
  height: number;
}) {
  // About eight labels along the x axis, four on a phone.
  const phone = useMediaQuery(PHONE) ?? false;
  const props = useMemo(() => {
    const data = chartData(report);
    const labels = phone ? 4 : 8;
    const withNA = countsNA(report);
    const overTime = report.mode === 'TimeSeries';
    return {
      data,
      withNA,
      // Animations off: a wall of 24 graphs draws at once, and screenshots show the final picture.
      rateLine: { isAnimationActive: false, strokeWidth: overTime ? 2.5 : 0 },
      common: {
        h: height - LEGEND_HEIGHT,
        data,
        dataKey: 'name',
        tooltipProps: { content: (p: object) => <Tip {...p} withNA={withNA} /> },
        // A fixed step between labels: recharts would otherwise measure every label's text in the DOM to
        // choose, which for two years by day on 24 graphs takes seconds.
        xAxisProps: { interval: data.length <= labels + 4 ? 0 : Math.ceil(data.length / labels) - 1 },
        connectNulls: false,
        curveType: 'linear' as const,
        withDots: !overTime || data.length <= 31,
        dotProps: overTime ? undefined : { r: 5 },
        'aria-label': title,
        role: 'img',
      },
    };
  }, [report, height, title, phone]);
  if (type === 'Line')
    return (
      <div>
        <LineChart
          {...props.common}
          series={[PASS_RATE]}
          yAxisProps={percentAxis}
          lineProps={props.rateLine}
          data-testid="line-chart"
        />
        <Legend series={[PASS_RATE]} />
      </div>
    );
  const bars = props.withNA ? [PASSED, FAILED, NA] : [PASSED, FAILED];
  return (
    <div>
      <CompositeChart
        {...props.common}
        series={[
          ...bars.map((b) => ({ ...b, type: 'bar' as const })),
          { ...PASS_RATE, type: 'line', yAxisId: 'right' },
        ]}
        withRightYAxis
        yAxisProps={countAxis}
        rightYAxisProps={percentAxis}
        barProps={{ isAnimationActive: false, stackId: 'counts' }}
        lineProps={props.rateLine}
        maxBarWidth={48}
        data-testid="bar-chart"
      />
      <Legend series={[PASS_RATE, ...bars]} />
    </div>
  );
});

/** A graph's place while its figures come. */
function GraphLoading({ title, height }: { title: string; height: number }) {
  return (
    <Stack gap={6} role="status" aria-label={`Loading ${title}`} data-testid="graph-loading">
      <Skeleton height={height} />
    </Stack>
  );
}

/** A graph whose figures could not be read: the message, and Try again. */
function GraphFailed({
  message,
  height,
  query,
}: {
  message: string;
  height: number;
  query: { isFetching: boolean; refetch: () => Promise<unknown> };
}) {
  return (
    <Stack gap="xs" h={height} justify="center">
      <ErrorText message={message} />
      <Group>
        <Button variant="default" size="xs" loading={query.isFetching} onClick={() => void query.refetch()}>
          Try again
        </Button>
      </Group>
    </Stack>
  );
}

/** The figures of a graph, or why there are none. */
export function GraphBody({
  setting,
  title,
  report,
  height,
}: {
  setting: DashboardSettingInput;
  title: string;
  height: number;
  /** The graph's get-report query (its card uses the same one for the CSV download). */
  report: ReturnType<typeof useReport>;
}) {
  if (report.isPending) return <GraphLoading title={title} height={height} />;
  if (report.isError)
    return <GraphFailed message={messageOf(report.error, api.getReport)} height={height} query={report} />;
  const figures = report.data.report;
  if (isEmpty(figures))
    return (
      <Center h={height} data-testid="graph-empty">
        <Text c="dimmed">{NO_EVALUATIONS}</Text>
      </Center>
    );
  if (setting.type === 'Table') return <ReportTable report={figures} caption={title} />;
  return (
    <div data-testid="graph-drawn">
      <Chart report={figures} type={setting.type} title={title} height={height} />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Schedule compliance (decision 0704)

function ComplianceTable({
  compliance,
  perCard,
  caption,
}: {
  compliance: Compliance;
  perCard: boolean;
  caption: string;
}) {
  const phone = useMediaQuery(PHONE) ?? false;
  return (
    <ScrollArea.Autosize
      mah={360}
      type="auto"
      className={classes.tableScroll}
      viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': caption }}
    >
      <Table
        striped
        withTableBorder
        stickyHeader
        fz={phone ? 'xs' : 'sm'}
        horizontalSpacing={phone ? 6 : 'xs'}
        className={classes.table}
        data-testid="compliance-graph-table"
      >
        <Table.Caption className={classes.visuallyHidden}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{perCard ? 'Card' : 'Board'}</Table.Th>
            <Table.Th scope="col" ta="right">
              Done on time
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Late
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Missed
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Compliance
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {compliance.rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Th scope="row" fw={400}>
                {row.name}
              </Table.Th>
              <Table.Td ta="right">{row.done}</Table.Td>
              <Table.Td ta="right">{row.late}</Table.Td>
              <Table.Td ta="right">{row.missed}</Table.Td>
              <Table.Td ta="right">{percent(row.rate)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th scope="row">All</Table.Th>
            <Table.Td ta="right">{compliance.total.done}</Table.Td>
            <Table.Td ta="right">{compliance.total.late}</Table.Td>
            <Table.Td ta="right">{compliance.total.missed}</Table.Td>
            <Table.Td ta="right">{percent(compliance.total.rate)}</Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollArea.Autosize>
  );
}

const COMPLIANCE: Series = { name: 'Compliance', color: 'teal.7' };

/**
 * Bar: compliance (%) per board or card, with the figures in a table under the bars (the bars' text
 * alternative, and what the tooltip would otherwise hide); Table: the table alone.
 */
const ComplianceChart = memo(function ComplianceChart({
  compliance,
  perCard,
  title,
}: {
  compliance: Compliance;
  perCard: boolean;
  title: string;
}) {
  const data = useMemo(
    () =>
      compliance.rows.map((r) => ({
        name: r.name,
        Compliance: r.rate === null ? 0 : Math.round(r.rate * 1000) / 10,
      })),
    [compliance],
  );
  return (
    <Stack gap="xs">
      <BarChart
        h={160}
        data={data}
        dataKey="name"
        series={[COMPLIANCE]}
        yAxisProps={percentAxis}
        role="img"
        aria-label={`${title}: compliance by ${perCard ? 'card' : 'board'}, figures in the table below`}
        barProps={{ isAnimationActive: false }}
        maxBarWidth={48}
        data-testid="compliance-chart"
      />
      <ComplianceTable compliance={compliance} perCard={perCard} caption={title} />
    </Stack>
  );
});

/** The figures of a compliance graph, or why there are none. */
export function ComplianceBody({
  setting,
  title,
  compliance,
  height,
}: {
  setting: DashboardSettingInput;
  title: string;
  height: number;
  /** The graph's get-schedule-compliance query (its card uses the same one for the CSV download). */
  compliance: ReturnType<typeof useComplianceReport>;
}) {
  if (compliance.isPending) return <GraphLoading title={title} height={height} />;
  if (compliance.isError)
    return (
      <GraphFailed
        message={messageOf(compliance.error, api.getScheduleCompliance)}
        height={height}
        query={compliance}
      />
    );
  const figures = compliance.data;
  if (figures.rows.length === 0)
    return (
      <Center h={height} data-testid="graph-empty">
        <Text c="dimmed">{NO_COMPLIANCE}</Text>
      </Center>
    );
  const perCard = setting.board_id !== -1;
  return (
    <Stack gap={4} data-testid="graph-drawn">
      {setting.type === 'Table' ? (
        <ComplianceTable compliance={figures} perCard={perCard} caption={title} />
      ) : (
        <ComplianceChart compliance={figures} perCard={perCard} title={title} />
      )}
      <Text size="xs" c="dimmed">
        Days in {figures.timeZone}
      </Text>
    </Stack>
  );
}
