/**
 * Add graph / Edit graph: the report (pass rate, or schedule compliance: decision 0704, which keeps only
 * the board, the period and Bar or Table), what is measured (board, card and item pickers from
 * get-boards-cards-and-items, deleted ones named as such, a search box above 10 entries), the period
 * (number and unit, or Now), the time division (which decides the mode) and the chart type. Saving writes
 * the whole dashboard.
 */
import {
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import {
  COMPLIANCE_PERIOD_LIMITS,
  DURATIONS,
  GRAPH_REPORTS,
  GRAPH_TYPES,
  PERIOD_LIMITS,
  TIME_DIVISIONS,
  type DashboardSettingInput,
  type Duration,
} from '../../../common/api/index.ts';
import { PICKER_SEARCH_THRESHOLD } from '../../../common/constants.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import {
  ALL,
  COMPLIANCE_DESCRIPTION,
  MODE_DESCRIPTIONS,
  REPORT_LABELS,
  NOW,
  boardName,
  cardName,
  isCompliance,
  itemName,
  modeOf,
  periodProblem,
  plainText,
  withReport,
  type Catalogue,
} from './graphs.ts';
import classes from './Analytics.module.css';

type Option = { value: string; label: string };

function Picker({
  label,
  options,
  value,
  onChange,
  disabled,
  description,
}: {
  label: string;
  options: Option[];
  value: number;
  onChange: (id: number) => void;
  disabled?: boolean;
  description?: string;
}) {
  return (
    <Select
      label={label}
      description={description}
      data={options}
      value={String(value)}
      onChange={(v) => v !== null && onChange(Number(v))}
      allowDeselect={false}
      // SPEC §5: a search box only above 10 entries.
      searchable={options.length > PICKER_SEARCH_THRESHOLD}
      nothingFoundMessage="Nothing matches"
      disabled={disabled}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** Entries of the catalogue as picker options: live ones by name, then deleted ones, named as such. */
function options<T extends { id: number; isDeleted: boolean }>(
  list: readonly T[],
  name: (t: T) => string,
  allLabel: string,
  current: number,
  currentName: string,
): Option[] {
  const sorted = [...list].sort(
    (a, b) => Number(a.isDeleted) - Number(b.isDeleted) || name(a).localeCompare(name(b)),
  );
  const result = [
    { value: String(ALL), label: allLabel },
    ...sorted.map((t) => ({ value: String(t.id), label: t.isDeleted ? `${name(t)} (deleted)` : name(t) })),
  ];
  // A graph of something deleted before the catalogue's window keeps its choice.
  if (current !== ALL && !list.some((t) => t.id === current))
    result.push({ value: String(current), label: currentName });
  return result;
}

function PeriodEnd({
  legend,
  number,
  duration,
  onChange,
  error,
  limits = PERIOD_LIMITS,
}: {
  legend: string;
  number: number;
  duration: Duration;
  onChange: (number: number, duration: Duration) => void;
  error?: string;
  limits?: Record<Duration, number>;
}) {
  const now = number === NOW;
  const [last, setLast] = useState(now ? 1 : number);
  return (
    <fieldset className={classes.fieldset}>
      <Text component="legend" size="sm" fw="var(--mantine-font-weight-medium)">
        {legend}
      </Text>
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <NumberInput
          aria-label={`${legend}: how many`}
          value={now ? '' : number}
          placeholder={now ? 'Now' : undefined}
          disabled={now}
          min={1}
          max={limits[duration]}
          allowDecimal={false}
          allowNegative={false}
          // Beyond the unit's limit the editor says so, rather than changing the number behind one's back.
          clampBehavior="none"
          w={96}
          error={error ? true : undefined}
          onChange={(v) => {
            const n = typeof v === 'number' ? v : Number(v || 0);
            setLast(n);
            onChange(n, duration);
          }}
        />
        <Select
          aria-label={`${legend}: unit`}
          data={DURATIONS.map((d) => ({ value: d, label: `${d} ago` }))}
          value={duration}
          onChange={(v) => v && onChange(number, v as Duration)}
          allowDeselect={false}
          disabled={now}
          w={150}
          comboboxProps={{ withinPortal: true }}
        />
        <Checkbox
          label="Now"
          checked={now}
          mt={8}
          onChange={(event) => onChange(event.currentTarget.checked ? NOW : last, duration)}
        />
      </Group>
      {error && (
        <Text size="sm" c="var(--mantine-color-error)" mt={4} role="alert">
          {error}
        </Text>
      )}
    </fieldset>
  );
}

function EditorForm({
  initial,
  catalogue,
  onSave,
  onClose,
}: {
  initial: DashboardSettingInput;
  catalogue: Catalogue;
  onSave: (setting: DashboardSettingInput) => Promise<string | null>;
  onClose: () => void;
}) {
  const [setting, setSetting] = useState(initial);
  const [problem, setProblem] = useState<ReturnType<typeof periodProblem>>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const change = (patch: Partial<DashboardSettingInput>) => {
    setProblem(null);
    setSetting((s) => ({ ...s, ...patch }));
  };

  const board = catalogue.boards.find((b) => b.id === setting.board_id);
  const cardsOfBoard = board ? catalogue.cards.filter((c) => board.cardIDs.includes(c.id)) : catalogue.cards;
  const card = catalogue.cards.find((c) => c.id === setting.card_id);
  // Only Pass/Fail items have answers to count.
  const items = (card?.cardItems ?? []).filter((i) => i.type === 'pass_fail');
  const mode = modeOf(setting);
  const compliance = isCompliance(setting);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = periodProblem(setting);
    setProblem(found);
    if (found) return;
    setBusy(true);
    setFailure(null);
    const message = await onSave(setting);
    setBusy(false);
    if (message) setFailure(message);
    else onClose();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="graph-report-label">
            Report
          </Text>
          <SegmentedControl
            aria-labelledby="graph-report-label"
            data={GRAPH_REPORTS.map((r) => ({ value: r, label: REPORT_LABELS[r] }))}
            value={setting.report ?? 'Evaluations'}
            onChange={(v) => {
              setProblem(null);
              setSetting((s) => withReport(s, v as (typeof GRAPH_REPORTS)[number]));
            }}
          />
          {compliance && (
            <Text size="sm" c="dimmed">
              {COMPLIANCE_DESCRIPTION}
            </Text>
          )}
        </Stack>
        <Picker
          label="Board"
          options={options(
            catalogue.boards,
            (b) => b.name,
            'All boards',
            setting.board_id,
            boardName(catalogue, setting.board_id),
          )}
          value={setting.board_id}
          onChange={(board_id) => {
            const keepsCard =
              board_id === ALL ||
              setting.card_id === ALL ||
              catalogue.boards.find((b) => b.id === board_id)?.cardIDs.includes(setting.card_id);
            change(keepsCard ? { board_id } : { board_id, card_id: ALL, card_item_id: ALL });
          }}
        />
        {!compliance && (
          <>
            <Picker
              label="Card"
              options={options(
                cardsOfBoard,
                (c) => c.name,
                'All cards',
                setting.card_id,
                cardName(catalogue, setting.card_id),
              )}
              value={setting.card_id}
              onChange={(card_id) => change({ card_id, card_item_id: ALL })}
            />
            <Picker
              label="Item"
              description={setting.card_id === ALL ? 'Choose a card to measure one of its items.' : undefined}
              options={options(
                items,
                (i) => plainText(i.content),
                'Whole evaluations',
                setting.card_item_id,
                itemName(catalogue, setting.card_id, setting.card_item_id),
              )}
              value={setting.card_item_id}
              disabled={setting.card_id === ALL}
              onChange={(card_item_id) => change({ card_item_id })}
            />
          </>
        )}
        <PeriodEnd
          legend="Start"
          number={setting.start_number}
          duration={setting.start_duration}
          error={problem?.field === 'start' ? problem.message : undefined}
          limits={compliance ? COMPLIANCE_PERIOD_LIMITS : PERIOD_LIMITS}
          onChange={(start_number, start_duration) => change({ start_number, start_duration })}
        />
        <PeriodEnd
          legend="End"
          number={setting.end_number}
          duration={setting.end_duration}
          error={problem?.field === 'end' ? problem.message : undefined}
          onChange={(end_number, end_duration) => change({ end_number, end_duration })}
        />
        {!compliance && (
          <Select
            label="Time division"
            description={MODE_DESCRIPTIONS[mode]}
            data={TIME_DIVISIONS.map((d) => ({ value: d, label: d }))}
            value={setting.time_division}
            onChange={(v) => v && change({ time_division: v as DashboardSettingInput['time_division'] })}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Stack gap={4}>
          <Text size="sm" fw={500} id="graph-type-label">
            Chart type
          </Text>
          <SegmentedControl
            aria-labelledby="graph-type-label"
            // A compliance graph compares boards or cards: bars or a table, no line between them.
            data={GRAPH_TYPES.filter((t) => !compliance || t !== 'Line').map((t) => ({ value: t, label: t }))}
            value={setting.type}
            onChange={(v) => change({ type: v as DashboardSettingInput['type'] })}
          />
        </Stack>
        <ErrorText message={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function GraphEditorModal({
  opened,
  title,
  initial,
  catalogue,
  catalogueFailure,
  onSave,
  onClose,
}: {
  opened: boolean;
  title: string;
  initial: DashboardSettingInput;
  catalogue: Catalogue | undefined;
  /** Why the boards, cards and items could not be loaded. */
  catalogueFailure: string | null;
  /** Saves the dashboard with this graph; the failure's message, or null. */
  onSave: (setting: DashboardSettingInput) => Promise<string | null>;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" fullScreen={phone}>
      {opened &&
        (catalogue ? (
          <EditorForm initial={initial} catalogue={catalogue} onSave={onSave} onClose={onClose} />
        ) : catalogueFailure ? (
          <ErrorText message={catalogueFailure} />
        ) : (
          <Loading label="Loading boards, cards and items" />
        ))}
    </Modal>
  );
}
