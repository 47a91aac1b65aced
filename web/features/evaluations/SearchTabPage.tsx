/**
 * The shell both search tabs share (Evaluations, Feedback): the filter, newest first with 'load more' by
 * keyset paging, the empty and failed states, the evaluation modal, and the Excel download of the filter.
 * Each tab brings only its query and how its rows look.
 */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { UseInfiniteQueryResult, InfiniteData } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { CallDef } from '../../../common/api/define.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import type { SearchFilter } from './api.ts';
import { EvaluationModal } from './EvaluationModal.tsx';
import { ExcelButton } from './ExcelButton.tsx';
import { useRights } from '../../shared/permissions.ts';
import { SearchFilters, emptyFilter, toSearchFilter } from './SearchFilters.tsx';

type Search = { filter: SearchFilter; run: number };
type ExcelCall = Parameters<typeof ExcelButton>[0]['call'];

export function SearchTabPage<Row>({
  title,
  useSearch,
  searchCall,
  excelCall,
  dateLabel,
  empty,
  count,
  firstTime,
  children,
}: {
  title: string;
  useSearch: (search: Search) => UseInfiniteQueryResult<InfiniteData<Row[]>>;
  searchCall: CallDef;
  excelCall: ExcelCall;
  dateLabel: string;
  /** SPEC's text when nothing matches. */
  empty: string;
  /** 'Showing …' for a number of rows. */
  count: (n: number) => string;
  /** The newest row's time: the export is frozen at it. */
  firstTime: (row: Row) => string;
  children: (rows: Row[], openEvaluation: (evalID: number) => void) => ReactNode;
}) {
  const rights = useRights();
  const [current, setCurrent] = useState<Search>(() => ({
    filter: toSearchFilter(emptyFilter, false),
    run: 0,
  }));
  const search = useSearch(current);
  const [opened, setOpened] = useState<number | null>(null);
  const rows = search.data?.pages.flat() ?? [];

  return (
    <Page
      title={title}
      actions={
        <ExcelButton
          call={excelCall}
          filter={current.filter}
          maxDateTime={rows[0] ? firstTime(rows[0]) : null}
        />
      }
    >
      <SearchFilters
        isAdmin={rights.isAdmin}
        dateLabel={dateLabel}
        onSearch={(next: SearchFilter) => setCurrent((c) => ({ filter: next, run: c.run + 1 }))}
      />
      <ErrorText message={search.error && messageOf(search.error, searchCall)} />
      {search.isPending ? (
        <Loading label={`Loading ${title.toLowerCase()}`} />
      ) : rows.length === 0 ? (
        !search.isError && (
          <Text role="status" ta="center" py="lg" fw={600}>
            {empty}
          </Text>
        )
      ) : (
        <Stack gap="xs">
          <Title order={2} className="visually-hidden">
            Results
          </Title>
          {children(rows, setOpened)}
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" role="status" data-testid="shown-count">
              {count(rows.length)}
            </Text>
            {search.hasNextPage && (
              <Button
                variant="default"
                loading={search.isFetchingNextPage}
                onClick={() => search.fetchNextPage()}
              >
                Load more
              </Button>
            )}
          </Group>
        </Stack>
      )}
      <EvaluationModal evalID={opened} onClose={() => setOpened(null)} />
    </Page>
  );
}
