/** Every route of SPEC §2. Pages of the organisation live under /q/{org}; anything else is 'Page Not Found'. */
import { type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { BoardViewPage } from './pages/BoardViewPage.tsx';
import { EvaluationRoute } from './pages/EvaluationRoute.tsx';
import { AnonymousSelectionPage } from '../features/anonymous/AnonymousSelectionPage.tsx';
import { EvaluationSelectionPage } from '../features/evaluations/EvaluationSelectionPage.tsx';
import { NotFoundPage } from '../shared/NotFoundPage.tsx';
import { MemberLayout } from '../shared/gates/MemberGate.tsx';
import { RoleGate } from '../shared/gates/RoleGate.tsx';
import { RootLayout } from './layout/RootLayout.tsx';
import { lazyWithStyles } from '../components/lazyWithStyles.ts';

/**
 * A page loaded when it is first opened (docs/decisions/0741): the first load carries the layout, the board
 * view, the card pickers (member and anonymous: the QR code opens the latter) and the evaluation page, the
 * pages a phone opens most, so that a board opened online can be evaluated offline (decision 0730), and
 * nothing else.
 */
function page<K extends string, P>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazyWithStyles(() => load().then((m) => ({ default: m[name] })));
}

const AccountSettingsPage = page(
  () => import('../features/accounts/AccountSettingsPage.tsx'),
  'AccountSettingsPage',
);
const CreateAppPage = page(() => import('../features/accounts/CreateAppPage.tsx'), 'CreateAppPage');
const LoginPage = page(() => import('../features/accounts/LoginPage.tsx'), 'LoginPage');
const PlansPage = page(() => import('../features/accounts/PlansPage.tsx'), 'PlansPage');
const RequestPasswordResetPage = page(
  () => import('../features/accounts/RequestPasswordResetPage.tsx'),
  'RequestPasswordResetPage',
);
const ResetPasswordPage = page(
  () => import('../features/accounts/ResetPasswordPage.tsx'),
  'ResetPasswordPage',
);
const SignupPage = page(() => import('../features/accounts/SignupPage.tsx'), 'SignupPage');
const UsersPage = page(() => import('../features/accounts/UsersPage.tsx'), 'UsersPage');
const VerifyPage = page(() => import('../features/accounts/VerifyPage.tsx'), 'VerifyPage');
const ActionsTab = page(() => import('../features/actions/ActionsTab.tsx'), 'ActionsTab');
const AnonymousBoardsPage = page(
  () => import('../features/anonymous/AnonymousBoardsPage.tsx'),
  'AnonymousBoardsPage',
);
const ThankYouPage = page(() => import('../features/anonymous/ThankYouPage.tsx'), 'ThankYouPage');
const BoardsPanel = page(() => import('../features/boards/BoardsPanel.tsx'), 'BoardsPanel');
const CardsPage = page(() => import('../features/cards/CardsPage.tsx'), 'CardsPage');
const EvaluationsTab = page(() => import('../features/evaluations/EvaluationsTab.tsx'), 'EvaluationsTab');
const FeedbackTab = page(() => import('../features/evaluations/feedback/FeedbackTab.tsx'), 'FeedbackTab');
const LandingPage = page(() => import('../features/landing/LandingPage.tsx'), 'LandingPage');
const OrgSettingsPage = page(() => import('../features/settings/OrgSettingsPage.tsx'), 'OrgSettingsPage');
const ComingSoonPage = page(() => import('../shared/ComingSoonPage.tsx'), 'ComingSoonPage');
const HomeLayout = page(() => import('../features/org/HomeLayout.tsx'), 'HomeLayout');

// The card builder brings the rich-text editor: loaded only when an admin opens it.
const CardBuilderPage = lazyWithStyles(() =>
  import('../features/cards/builder/CardBuilderPage.tsx').then((m) => ({ default: m.CardBuilderPage })),
);

// Analytics brings the charting library (recharts): loaded only when an administrator opens it.
// Schedules bring the recurrence library (rrule): loaded only when the Schedule tab is opened.
const ScheduleTab = lazyWithStyles(() =>
  import('../features/schedules/ScheduleTab.tsx').then((m) => ({ default: m.ScheduleTab })),
);
const DocsPage = lazyWithStyles(() =>
  import('../features/docs/DocsPage.tsx').then((m) => ({ default: m.DocsPage })),
);
const AnalyticsPage = lazyWithStyles(() =>
  import('../features/analytics/AnalyticsPage.tsx').then((m) => ({ default: m.AnalyticsPage })),
);

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/plans', element: <PlansPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/verify', element: <VerifyPage /> },
      { path: '/create-app', element: <CreateAppPage /> },
      { path: '/request-password-reset', element: <RequestPasswordResetPage /> },
      { path: '/reset-password/:token', element: <ResetPasswordPage /> },
      {
        path: '/q/:org',
        children: [
          // Public pages of an organisation.
          { path: 'login', element: <LoginPage /> },
          { path: 'request-password-reset', element: <RequestPasswordResetPage /> },
          { path: 'reset-password/:token', element: <ResetPasswordPage /> },
          { path: 'boards/:board/thank-you', element: <ThankYouPage /> },
          { path: 'boards/:board/:boardID/eval/:anonKey', element: <AnonymousSelectionPage /> },
          // One evaluation, in either reading of its path; the anonymous one needs no sign-in.
          { path: 'boards/:s1/:s2/eval/:s3/:s4/:s5/:s6?', element: <EvaluationRoute /> },
          // Account settings stay open to the Owner of an unpaid organisation.
          {
            element: <MemberLayout requirePaid={false} />,
            children: [
              {
                path: 'admin',
                element: (
                  <RoleGate allow="accountSettings">
                    <AccountSettingsPage />
                  </RoleGate>
                ),
              },
              {
                path: 'settings',
                element: (
                  <RoleGate allow="accountSettings">
                    <OrgSettingsPage />
                  </RoleGate>
                ),
              },
            ],
          },
          {
            element: <MemberLayout />,
            children: [
              { index: true, element: <NotFoundPage /> },
              {
                path: 'home',
                element: <HomeLayout />,
                children: [
                  { index: true, element: <BoardsPanel /> },
                  {
                    path: 'cards',
                    element: (
                      <RoleGate allow="cardsTab">
                        <CardsPage />
                      </RoleGate>
                    ),
                  },
                  {
                    path: 'cards/new',
                    element: (
                      <RoleGate allow="cardsTab">
                        <CardBuilderPage />
                      </RoleGate>
                    ),
                  },
                  {
                    path: 'cards/new/:cardID',
                    element: (
                      <RoleGate allow="cardsTab">
                        <CardBuilderPage />
                      </RoleGate>
                    ),
                  },
                  {
                    path: 'cards/edit/:cardID',
                    element: (
                      <RoleGate allow="cardsTab">
                        <CardBuilderPage />
                      </RoleGate>
                    ),
                  },
                  {
                    path: 'evaluations',
                    element: (
                      <RoleGate allow="evaluationsTab">
                        <EvaluationsTab />
                      </RoleGate>
                    ),
                  },
                  {
                    path: 'feedback',
                    element: (
                      <RoleGate allow="feedbackTab">
                        <FeedbackTab />
                      </RoleGate>
                    ),
                  },
                  {
                    // One route with the action optional: opening and closing one keeps the tab's filter.
                    path: 'actions/:actionID?',
                    element: (
                      <RoleGate allow="actionsTab">
                        <ActionsTab />
                      </RoleGate>
                    ),
                  },
                  {
                    path: 'schedule',
                    element: (
                      <RoleGate allow="scheduleTab">
                        <ScheduleTab />
                      </RoleGate>
                    ),
                  },
                  {
                    path: 'users',
                    element: (
                      <RoleGate allow="usersTab">
                        <UsersPage />
                      </RoleGate>
                    ),
                  },
                  { path: '*', element: <NotFoundPage /> },
                ],
              },
              { path: 'boards/:board', element: <BoardViewPage /> },
              { path: 'boards/:board/:boardID/eval', element: <EvaluationSelectionPage /> },
              { path: 'anon-boards', element: <AnonymousBoardsPage /> },
              {
                path: 'analytics',
                element: (
                  <RoleGate allow="analytics">
                    <AnalyticsPage />
                  </RoleGate>
                ),
              },
              { path: 'docs', element: <DocsPage /> },
              { path: 'support', element: <ComingSoonPage title="Support" /> },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function AppRoutes() {
  return useRoutes(routes);
}
