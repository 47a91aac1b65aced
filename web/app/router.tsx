/** Every route of SPEC §2. Pages of the organisation live under /q/{org}; anything else is 'Page Not Found'. */
import { lazy } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { AccountSettingsPage } from '../features/accounts/AccountSettingsPage.tsx';
import { CreateAppPage } from '../features/accounts/CreateAppPage.tsx';
import { LoginPage } from '../features/accounts/LoginPage.tsx';
import { PlansPage } from '../features/accounts/PlansPage.tsx';
import { RequestPasswordResetPage } from '../features/accounts/RequestPasswordResetPage.tsx';
import { ResetPasswordPage } from '../features/accounts/ResetPasswordPage.tsx';
import { SignupPage } from '../features/accounts/SignupPage.tsx';
import { UsersPage } from '../features/accounts/UsersPage.tsx';
import { VerifyPage } from '../features/accounts/VerifyPage.tsx';
import { ActionsTab } from '../features/actions/ActionsTab.tsx';
import { AnonymousBoardsPage } from '../features/anonymous/AnonymousBoardsPage.tsx';
import { AnonymousSelectionPage } from '../features/anonymous/AnonymousSelectionPage.tsx';
import { ThankYouPage } from '../features/anonymous/ThankYouPage.tsx';
import { BoardsPanel } from '../features/boards/BoardsPanel.tsx';
import { BoardViewPage } from './pages/BoardViewPage.tsx';
import { CardsPage } from '../features/cards/CardsPage.tsx';
import { EvaluationRoute } from './pages/EvaluationRoute.tsx';
import { EvaluationSelectionPage } from '../features/evaluations/EvaluationSelectionPage.tsx';
import { EvaluationsTab } from '../features/evaluations/EvaluationsTab.tsx';
import { FeedbackTab } from '../features/evaluations/feedback/FeedbackTab.tsx';
import { LandingPage } from '../features/landing/LandingPage.tsx';
import { OrgSettingsPage } from '../features/settings/OrgSettingsPage.tsx';
import { ComingSoonPage } from '../shared/ComingSoonPage.tsx';
import { NotFoundPage } from '../shared/NotFoundPage.tsx';
import { HomeLayout } from '../features/org/HomeLayout.tsx';
import { MemberLayout } from '../shared/gates/MemberGate.tsx';
import { RoleGate } from '../shared/gates/RoleGate.tsx';
import { RootLayout } from './layout/RootLayout.tsx';

// The card builder brings the rich-text editor: loaded only when an admin opens it.
const CardBuilderPage = lazy(() =>
  import('../features/cards/builder/CardBuilderPage.tsx').then((m) => ({ default: m.CardBuilderPage })),
);

// Analytics brings the charting library (recharts): loaded only when an administrator opens it.
// Schedules bring the recurrence library (rrule): loaded only when the Schedule tab is opened.
const ScheduleTab = lazy(() =>
  import('../features/schedules/ScheduleTab.tsx').then((m) => ({ default: m.ScheduleTab })),
);
const DocsPage = lazy(() => import('../features/docs/DocsPage.tsx').then((m) => ({ default: m.DocsPage })));
const AnalyticsPage = lazy(() =>
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
