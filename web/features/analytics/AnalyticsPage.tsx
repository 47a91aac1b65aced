/**
 * /q/{org}/analytics (SPEC §1-§3, DECISIONS.md "Analytics"): dashboards as tabs, the default first, with
 * New dashboard, Rename, Set as default and Delete; each dashboard's graphs in graph_order, reordered by
 * drag or by the Move buttons, added and edited in the graph editor, each with a CSV of its figures; and a
 * wall-screen mode (full screen, redrawn every minute). Loaded only when an administrator opens it.
 */
import '@mantine/charts/styles.layer.css';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  api,
  type Dashboard,
  type DashboardSetting,
  type DashboardSettingInput,
} from '../../../common/api/index.ts';
import { GRAPHS_PER_DASHBOARD_MAX, PRODUCT_NAME } from '../../../common/constants.ts';
import { checkShortName } from '../../../common/fieldRules.ts';
import { ConfirmDeleteModal } from '../../components/ConfirmDeleteModal.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import {
  ArrowDownIcon,
  ArrowUpIcon,
  DownloadIcon,
  EditIcon,
  GripIcon,
  PlusIcon,
  TrashIcon,
} from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { saveDownload } from '../../lib/download.ts';
import {
  WALL_REFRESH_MS,
  analyticsKeys,
  useAddDashboard,
  useCatalogue,
  useDashboards,
  useDeleteDashboard,
  useComplianceReport,
  useEditDashboard,
  useReport,
  useSetDefaultDashboard,
} from './api.ts';
import { ComplianceBody, GraphBody } from './Graph.tsx';
import { GraphEditorModal } from './GraphEditor.tsx';
import {
  DEFAULT_SETTING,
  complianceCsv,
  csvFilename,
  graphSubtitle,
  graphTitle,
  inOrder,
  isCompliance,
  move,
  renumber,
  reportCsv,
  settingInput,
  type Catalogue,
} from './graphs.ts';
import { CompliancePanel } from './CompliancePanel.tsx';
import classes from './Analytics.module.css';

/** Dashboards as tabs show them: the default first, then in the order they were made. */
const tabOrder = (dashboards: Dashboard[]) =>
  [...dashboards].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.id - b.id);

function DashboardNameModal({
  opened,
  dashboard,
  onClose,
  onAdded,
}: {
  opened: boolean;
  /** Null: a new dashboard. */
  dashboard: Dashboard | null;
  onClose: () => void;
  onAdded: (dashboard: Dashboard) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={dashboard ? 'Rename dashboard' : 'New dashboard'}>
      {opened && <DashboardNameForm dashboard={dashboard} onClose={onClose} onAdded={onAdded} />}
    </Modal>
  );
}

function DashboardNameForm({
  dashboard,
  onClose,
  onAdded,
}: {
  dashboard: Dashboard | null;
  onClose: () => void;
  onAdded: (dashboard: Dashboard) => void;
}) {
  const [name, setName] = useState(dashboard?.name ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const add = useAddDashboard();
  const edit = useEditDashboard();
  const call = dashboard ? api.editDashboard : api.addDashboard;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const problem = checkShortName(name.trim());
    setFieldError(problem);
    setFailure(null);
    if (problem) return;
    try {
      if (dashboard)
        await edit.mutateAsync({
          id: dashboard.id,
          name: name.trim(),
          settings: inOrder(dashboard.settings).map(settingInput),
        });
      else onAdded((await add.mutateAsync({ name: name.trim(), settings: [] })).dashboard);
      onClose();
    } catch (error) {
      setFailure(messageOf(error, call));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={dashboard ? 'New Name' : 'Name'}
          required
          data-autofocus
          value={name}
          error={fieldError}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <ErrorText message={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending || edit.isPending}>
            Submit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function GraphCard({
  setting,
  index,
  count,
  catalogue,
  wall,
  dragging,
  dropTarget,
  onEdit,
  onDelete,
  onMove,
  onDragStart,
  onDragEnter,
  onDrop,
  onDragEnd,
}: {
  setting: DashboardSetting;
  index: number;
  count: number;
  catalogue: Catalogue | undefined;
  wall: boolean;
  dragging?: boolean;
  dropTarget?: boolean;
  onEdit?: () => void;
  onDelete?: () => void;
  onMove?: (to: number) => void;
  onDragStart?: () => void;
  onDragEnter?: () => void;
  onDrop?: () => void;
  onDragEnd?: () => void;
}) {
  const title = graphTitle(catalogue, setting);
  const subtitle = graphSubtitle(setting);
  // One of the two asks the server: a compliance graph's figures come from get-schedule-compliance.
  const compliance = isCompliance(setting);
  const report = useReport(setting, wall ? WALL_REFRESH_MS : undefined);
  const complianceReport = useComplianceReport(setting, wall ? WALL_REFRESH_MS : undefined);
  const figures = report.data?.report;
  const csv = compliance
    ? complianceReport.data && complianceCsv(complianceReport.data, setting.board_id !== -1)
    : figures && reportCsv(figures);
  const download = () => {
    if (!csv) return;
    saveDownload({
      blob: new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }),
      filename: csvFilename(PRODUCT_NAME, title),
    });
  };
  const label = `graph ${index + 1}, ${title}`;

  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-label={title}
      className={classes.graph}
      data-testid="graph"
      data-dragging={dragging || undefined}
      data-drop-target={dropTarget || undefined}
      onDragOver={wall ? undefined : (event: React.DragEvent) => event.preventDefault()}
      onDragEnter={wall ? undefined : onDragEnter}
      onDrop={
        wall
          ? undefined
          : (event: React.DragEvent) => {
              event.preventDefault();
              onDrop?.();
            }
      }
    >
      <Group justify="space-between" align="flex-start" gap="xs">
        <Group gap={6} align="flex-start" wrap="nowrap" className={classes.heading}>
          {!wall && (
            <div
              className={classes.handle}
              draggable
              onDragStart={(event) => {
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', String(setting.id));
                onDragStart?.();
              }}
              onDragEnd={onDragEnd}
              title="Drag to reorder"
              aria-hidden="true"
            >
              <GripIcon />
            </div>
          )}
          <div style={{ minWidth: 0 }}>
            <Title order={wall ? 2 : 3} size="h5" className={classes.title}>
              {title}
            </Title>
            <Text size="xs" c="dimmed">
              {subtitle}
            </Text>
          </div>
        </Group>
        {!wall && (
          <Group gap={2} wrap="nowrap" ml="auto">
            <Tooltip label="Download CSV">
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Download CSV of ${label}`}
                disabled={!csv}
                onClick={download}
              >
                <DownloadIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Move earlier">
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Move ${label} earlier`}
                disabled={index === 0}
                onClick={() => onMove?.(index - 1)}
              >
                <ArrowUpIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Move later">
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Move ${label} later`}
                disabled={index === count - 1}
                onClick={() => onMove?.(index + 1)}
              >
                <ArrowDownIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Edit graph">
              <ActionIcon variant="subtle" color="gray" aria-label={`Edit ${label}`} onClick={onEdit}>
                <EditIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete graph">
              <ActionIcon variant="subtle" color="red" aria-label={`Delete ${label}`} onClick={onDelete}>
                <TrashIcon />
              </ActionIcon>
            </Tooltip>
          </Group>
        )}
      </Group>
      {compliance ? (
        <ComplianceBody
          setting={setting}
          title={title}
          compliance={complianceReport}
          height={wall ? 300 : 240}
        />
      ) : (
        <GraphBody setting={setting} title={title} report={report} height={wall ? 300 : 240} />
      )}
    </Paper>
  );
}

/** The dashboard's graphs, and everything that changes them. */
function DashboardGraphs({
  dashboard,
  catalogue,
  catalogueFailure,
  wall,
  editorOpen,
  onEditorClose,
}: {
  dashboard: Dashboard;
  catalogue: Catalogue | undefined;
  catalogueFailure: string | null;
  wall: boolean;
  /** 'Add graph' was pressed. */
  editorOpen: boolean;
  onEditorClose: () => void;
}) {
  const queryClient = useQueryClient();
  const edit = useEditDashboard();
  const graphs = inOrder(dashboard.settings);
  const [editing, setEditing] = useState<DashboardSetting | null>(null);
  const [deleting, setDeleting] = useState<DashboardSetting | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dragOver, setDragOver] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  /** Saves the dashboard with these graphs; resolves to the failure's message or null. */
  const save = async (settings: DashboardSettingInput[], optimistic?: DashboardSetting[]) => {
    setFailure(null);
    if (optimistic) {
      // Show the new order at once; the whole dashboard is saved in one call.
      queryClient.setQueryData(
        analyticsKeys.dashboards,
        (old: { dashboards: Dashboard[] } | undefined) =>
          old && {
            dashboards: old.dashboards.map((d) =>
              d.id === dashboard.id ? { ...d, settings: optimistic } : d,
            ),
          },
      );
    }
    try {
      await edit.mutateAsync({ id: dashboard.id, name: dashboard.name, settings: renumber(settings) });
      return null;
    } catch (error) {
      if (optimistic) await queryClient.invalidateQueries({ queryKey: analyticsKeys.dashboards });
      return messageOf(error, api.editDashboard);
    }
  };

  const reorder = async (from: number, to: number) => {
    if (from === to || to < 0 || to >= graphs.length) return;
    const moved = renumber(move(graphs, from, to));
    const message = await save(moved.map(settingInput), moved);
    setFailure(message);
  };

  const saveGraph = (setting: DashboardSettingInput) => {
    const inputs = graphs.map(settingInput);
    if (editing) {
      const at = graphs.findIndex((g) => g.id === editing.id);
      inputs[at] = { ...setting, graph_order: at };
    } else inputs.push({ ...setting, graph_order: inputs.length });
    return save(inputs);
  };

  return (
    <Stack gap="md">
      <ErrorText message={failure} />
      {graphs.length === 0 ? (
        <Paper withBorder p="xl" data-testid="dashboard-empty">
          <Stack gap={4} align="center">
            <Text fw={700}>This dashboard has no graphs yet.</Text>
            {!wall && (
              <Text c="dimmed">
                Use Add graph to draw the pass rate of a board, card or item, or schedule compliance.
              </Text>
            )}
          </Stack>
        </Paper>
      ) : (
        <SimpleGrid cols={wall ? { base: 1, md: 2, xl: 3 } : { base: 1, md: 2 }} spacing="md">
          {graphs.map((setting, index) => (
            <GraphCard
              key={setting.id}
              setting={setting}
              index={index}
              count={graphs.length}
              catalogue={catalogue}
              wall={wall}
              dragging={dragFrom === index}
              dropTarget={dragFrom !== null && dragOver === index && dragFrom !== index}
              onEdit={() => setEditing(setting)}
              onDelete={() => setDeleting(setting)}
              onMove={(to) => void reorder(index, to)}
              onDragStart={() => setDragFrom(index)}
              onDragEnter={() => setDragOver(index)}
              onDragEnd={() => {
                setDragFrom(null);
                setDragOver(null);
              }}
              onDrop={() => {
                if (dragFrom !== null) void reorder(dragFrom, index);
                setDragFrom(null);
                setDragOver(null);
              }}
            />
          ))}
        </SimpleGrid>
      )}
      <GraphEditorModal
        opened={editorOpen || editing !== null}
        title={editing ? 'Edit graph' : 'Add graph'}
        initial={editing ? settingInput(editing) : DEFAULT_SETTING}
        catalogue={catalogue}
        catalogueFailure={catalogueFailure}
        onSave={saveGraph}
        onClose={() => {
          setEditing(null);
          onEditorClose();
        }}
      />
      <ConfirmDeleteModal
        opened={deleting !== null}
        name="graph"
        call={api.editDashboard}
        onDelete={() =>
          edit.mutateAsync({
            id: dashboard.id,
            name: dashboard.name,
            settings: renumber(graphs.filter((g) => g.id !== deleting?.id).map(settingInput)),
          })
        }
        onClose={() => setDeleting(null)}
      >
        {deleting ? `The graph “${graphTitle(catalogue, deleting)}” is removed from ${dashboard.name}.` : ''}
      </ConfirmDeleteModal>
    </Stack>
  );
}

/** Full screen, no controls, redrawn every minute: for a screen on the shop-floor wall. */
function WallScreen({
  dashboard,
  catalogue,
  onExit,
}: {
  dashboard: Dashboard;
  catalogue: Catalogue | undefined;
  onExit: () => void;
}) {
  const [time, setTime] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setTime(new Date()), WALL_REFRESH_MS);
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onExit();
    const onFullscreen = () => {
      if (!document.fullscreenElement) onExit();
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => {
      clearInterval(timer);
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onFullscreen);
    };
  }, [onExit]);
  return (
    <div
      className={classes.wall}
      role="dialog"
      aria-modal="true"
      aria-label={`${dashboard.name}, wall screen`}
    >
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <div>
            <Title order={1} size="h2">
              {dashboard.name}
            </Title>
            <Text size="sm" c="dimmed">
              Refreshed every minute · {time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
            </Text>
          </div>
          <Button variant="default" onClick={onExit}>
            Exit wall screen
          </Button>
        </Group>
        <DashboardGraphs
          dashboard={dashboard}
          catalogue={catalogue}
          catalogueFailure={null}
          wall
          editorOpen={false}
          onEditorClose={() => {}}
        />
      </Stack>
    </div>
  );
}

export function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const wall = params.get('wall') === '1';
  const dashboardsQuery = useDashboards(wall ? WALL_REFRESH_MS : undefined);
  const catalogueQuery = useCatalogue();
  const setDefault = useSetDefaultDashboard();
  const remove = useDeleteDashboard();
  const [naming, setNaming] = useState<'new' | 'rename' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [adding, setAdding] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const dashboards = tabOrder(dashboardsQuery.data?.dashboards ?? []);
  const chosen = Number(params.get('d'));
  const current = dashboards.find((d) => d.id === chosen) ?? dashboards[0];
  const catalogue = catalogueQuery.data?.boardsCardsAndItems;
  const catalogueFailure = catalogueQuery.isError
    ? messageOf(catalogueQuery.error, api.getBoardsCardsAndItems)
    : null;

  const choose = (id: number, extra: Record<string, string> = {}) =>
    setParams({ d: String(id), ...extra }, { replace: true });
  const enterWall = () => {
    if (!current) return;
    // Full screen needs the click's gesture; a kiosk that opens ?wall=1 directly gets the same layout.
    void document.documentElement.requestFullscreen?.().catch(() => {});
    choose(current.id, { wall: '1' });
  };
  const exitWall = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    if (current) choose(current.id);
  };

  if (wall && current) return <WallScreen dashboard={current} catalogue={catalogue} onExit={exitWall} />;

  const full = (current?.settings.length ?? 0) >= GRAPHS_PER_DASHBOARD_MAX;
  return (
    <Page
      title="Analytics"
      size="xl"
      actions={
        <Button leftSection={<PlusIcon size={16} />} onClick={() => setNaming('new')}>
          New dashboard
        </Button>
      }
    >
      {dashboardsQuery.isPending ? (
        <Loading label="Loading dashboards" />
      ) : dashboardsQuery.isError ? (
        <Stack gap="xs" align="flex-start">
          <ErrorText message={messageOf(dashboardsQuery.error, api.getDashboards)} />
          <Button variant="default" onClick={() => void dashboardsQuery.refetch()}>
            Try again
          </Button>
        </Stack>
      ) : !current ? (
        <Paper withBorder p="xl" data-testid="analytics-empty">
          <Stack gap="xs" align="center">
            <Text fw={700}>You have no dashboards yet.</Text>
            <Text c="dimmed" ta="center">
              A dashboard holds up to {GRAPHS_PER_DASHBOARD_MAX} graphs of how your boards, cards and items
              pass over time.
            </Text>
            <Button onClick={() => setNaming('new')}>Create a dashboard</Button>
          </Stack>
        </Paper>
      ) : (
        <Stack gap="md">
          <Tabs value={String(current.id)} onChange={(v) => v && choose(Number(v))} keepMounted={false}>
            <Tabs.List className={classes.tabs} aria-label="Dashboards">
              {dashboards.map((d) => (
                <Tabs.Tab
                  key={d.id}
                  value={String(d.id)}
                  rightSection={
                    d.isDefault ? (
                      <Badge size="xs" variant="filled">
                        Default
                      </Badge>
                    ) : undefined
                  }
                >
                  {d.name}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
          <Group gap="xs" justify="space-between">
            <Group gap="xs">
              <Button leftSection={<PlusIcon size={16} />} disabled={full} onClick={() => setAdding(true)}>
                Add graph
              </Button>
              <Button variant="default" onClick={enterWall}>
                Wall screen
              </Button>
            </Group>
            <Group gap="xs">
              <Button variant="default" onClick={() => setNaming('rename')}>
                Rename
              </Button>
              {!current.isDefault && (
                <Button
                  variant="default"
                  loading={setDefault.isPending}
                  onClick={async () => {
                    setFailure(null);
                    try {
                      await setDefault.mutateAsync({ ID: current.id });
                    } catch (error) {
                      setFailure(messageOf(error, api.setDefaultDashboard));
                    }
                  }}
                >
                  Set as default
                </Button>
              )}
              <Button
                variant="default"
                color="red"
                c="var(--mantine-color-error)"
                onClick={() => setDeleting(true)}
              >
                Delete
              </Button>
            </Group>
          </Group>
          {full && (
            <Text size="sm" c="dimmed">
              A dashboard can have at most {GRAPHS_PER_DASHBOARD_MAX} graphs.
            </Text>
          )}
          <ErrorText message={failure} />
          <DashboardGraphs
            key={current.id}
            dashboard={current}
            catalogue={catalogue}
            catalogueFailure={catalogueFailure}
            wall={false}
            editorOpen={adding}
            onEditorClose={() => setAdding(false)}
          />
        </Stack>
      )}
      <CompliancePanel />
      <DashboardNameModal
        opened={naming !== null}
        dashboard={naming === 'rename' ? (current ?? null) : null}
        onClose={() => setNaming(null)}
        onAdded={(d) => choose(d.id)}
      />
      <ConfirmDeleteModal
        opened={deleting && current !== undefined}
        name={current?.name ?? ''}
        call={api.deleteDashboard}
        onDelete={async () => {
          await remove.mutateAsync({ ID: current!.id });
          setParams({}, { replace: true });
        }}
        onClose={() => setDeleting(false)}
      >
        {current?.isDefault && dashboards.length > 1
          ? 'The dashboard and its graphs are deleted; another dashboard becomes the default.'
          : 'The dashboard and its graphs are deleted.'}
      </ConfirmDeleteModal>
    </Page>
  );
}
