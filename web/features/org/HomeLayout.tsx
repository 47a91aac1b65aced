/** The home tabs (SPEC §2): Boards for everyone, Cards and Users for admins, Evaluations and Feedback for evaluators; Actions (issue 12) and Schedule (issue 13) for evaluators. */
import { Container, Tabs } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { roleOf, show } from '../../../common/roles.ts';
import { paths } from '../../lib/paths.ts';
import { useUserData } from '../../lib/queries.ts';
import { Loading } from '../../components/Loading.tsx';

const TABS = [
  { value: 'boards', label: 'Boards', path: paths.home, visible: show.boardsTab },
  { value: 'cards', label: 'Cards', path: paths.cards, visible: show.cardsTab },
  { value: 'evaluations', label: 'Evaluations', path: paths.evaluationsTab, visible: show.evaluationsTab },
  { value: 'feedback', label: 'Feedback', path: paths.feedbackTab, visible: show.feedbackTab },
  { value: 'actions', label: 'Actions', path: paths.actionsTab, visible: show.actionsTab },
  { value: 'schedule', label: 'Schedule', path: paths.scheduleTab, visible: show.scheduleTab },
  { value: 'users', label: 'Users', path: paths.users, visible: show.usersTab },
] as const;

export function HomeLayout() {
  const { org = '' } = useParams();
  const { data: user } = useUserData();
  const location = useLocation();
  const navigate = useNavigate();
  const role = user ? roleOf(user) : 'viewer';
  const segment = location.pathname.split('/home/')[1]?.split('/')[0] ?? 'boards';
  const current = TABS.some((t) => t.value === segment) ? segment : 'boards';

  return (
    <>
      <Container size="lg" px="md" pt="md">
        <Tabs value={current} onChange={(value) => navigate(TABS.find((t) => t.value === value)!.path(org))}>
          <Tabs.List aria-label="Home">
            {TABS.filter((tab) => tab.visible(role)).map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {tab.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      </Container>
      {/* A tab loaded on demand (Schedule) keeps the tabs on screen while it comes. */}
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </>
  );
}
