/**
 * /q/{org}/anon-boards (SPEC §2, §9): a grid of QR codes, one per board that allows anonymous evaluation,
 * titled '{organisation} Boards'. Made to be left open on a screen on site: each code's key refreshes on its
 * own every 60 s (BoardQrCode), the boards every 2 minutes, and the codes grow to fill the screen.
 */
import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useFullscreenElement } from '@mantine/hooks';
import { useCallback, useState, type CSSProperties } from 'react';
import { useParams } from 'react-router';
import { api } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { messageOf } from '../../lib/api.ts';
import { useUserData } from '../../lib/queries.ts';
import { usePageTitle } from '../../lib/title.ts';
import { useBoards } from '../../shared/api/boards.ts';
import classes from './AnonymousBoards.module.css';
import { BoardQrCode } from './BoardQrCode.tsx';
import { CELL_PADDING, GRID_GAP, gridLayout } from './gridLayout.ts';

/** Space kept free under the grid, in CSS pixels. */
const BOTTOM_SPACE = 16;

/** The grid's width and the screen height left below its top, kept current as the window changes. */
function useGridBox() {
  const [box, setBox] = useState({ width: 0, height: 0 });
  const ref = useCallback((element: HTMLDivElement | null) => {
    if (!element) return;
    const measure = () => {
      const width = Math.floor(element.clientWidth);
      const top = element.getBoundingClientRect().top + (document.fullscreenElement ? 0 : window.scrollY);
      const height = Math.floor(window.innerHeight - top - BOTTOM_SPACE);
      setBox((current) =>
        current.width === width && current.height === height ? current : { width, height },
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener('resize', measure);
    document.addEventListener('fullscreenchange', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      document.removeEventListener('fullscreenchange', measure);
    };
  }, []);
  return [ref, box] as const;
}

export function AnonymousBoardsPage() {
  const { org = '' } = useParams();
  const { data: user } = useUserData();
  const boards = useBoards();
  const orgName = user?.orgName ?? org;
  const title = `${orgName} Boards`;
  usePageTitle(title);
  const [gridRef, box] = useGridBox();
  const { ref: screenRef, toggle: toggleFullscreen, fullscreen } = useFullscreenElement<HTMLElement>();

  const anonymous = (boards.data?.boards ?? []).filter((board) => board.hasAnonymous);
  const layout = gridLayout(anonymous.length, box.width, box.height);
  const heading = layout.title;
  const canFullscreen = typeof document !== 'undefined' && document.fullscreenEnabled;

  return (
    <Container fluid px="md" py="md">
      <section ref={screenRef} className={classes.screen} aria-labelledby="anon-boards-title">
        <Group justify="space-between" align="center" gap="sm" mb="md">
          <Title order={1} size="h2" id="anon-boards-title">
            {title}
          </Title>
          {anonymous.length > 0 && canFullscreen && (
            <Button variant="default" className={classes.noPrint} onClick={() => void toggleFullscreen()}>
              {fullscreen ? 'Exit full screen' : 'Full screen'}
            </Button>
          )}
        </Group>
        <ErrorText message={boards.error ? messageOf(boards.error, api.getBoards) : null} />
        {boards.isPending && <Loading label="Loading boards" />}
        {boards.data && anonymous.length === 0 && (
          <Paper withBorder p="xl" ta="center">
            <Stack gap={4}>
              <Text fw={600}>None of the boards allows anonymous evaluations.</Text>
              <Text c="dimmed">
                An administrator can turn on &lsquo;Allow Anonymous Evaluations&rsquo; when editing a board.
              </Text>
            </Stack>
          </Paper>
        )}
        {anonymous.length > 0 && (
          <div
            ref={gridRef}
            className={classes.grid}
            data-testid="anon-grid"
            data-columns={layout.columns}
            data-shown-columns={layout.shownColumns}
            style={
              {
                '--grid-columns': layout.shownColumns,
                '--print-columns': Math.min(layout.columns, 3),
                '--grid-gap': `${GRID_GAP}px`,
              } as CSSProperties
            }
          >
            {anonymous.map((board) => (
              <Paper
                key={board.id}
                withBorder
                p={CELL_PADDING}
                className={classes.cell}
                data-testid="anon-board"
              >
                <Stack gap={GRID_GAP} align="center">
                  <Title
                    order={2}
                    ta="center"
                    lineClamp={2}
                    className={classes.name}
                    style={{ fontSize: heading.fontSize, lineHeight: `${heading.lineHeight}px` }}
                    title={board.name}
                  >
                    {board.name}
                  </Title>
                  <BoardQrCode
                    boardID={board.id}
                    boardName={board.name}
                    size={layout.qrSize}
                    showLink={false}
                  />
                </Stack>
              </Paper>
            ))}
          </div>
        )}
      </section>
    </Container>
  );
}
