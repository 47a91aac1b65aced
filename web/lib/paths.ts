/** Paths of SPEC §2, built in one place. {org}, {board} and {card} are URL-encoded names. */
const enc = encodeURIComponent;

export const paths = {
  landing: () => '/',
  login: (org?: string) => (org ? `/q/${enc(org)}/login` : '/login'),
  signup: () => '/signup',
  plans: () => '/plans',
  requestPasswordReset: (org?: string) =>
    org ? `/q/${enc(org)}/request-password-reset` : '/request-password-reset',
  home: (org: string) => `/q/${enc(org)}/home`,
  cards: (org: string) => `/q/${enc(org)}/home/cards`,
  newCard: (org: string) => `/q/${enc(org)}/home/cards/new`,
  editCard: (org: string, cardID: number) => `/q/${enc(org)}/home/cards/edit/${cardID}`,
  evaluationsTab: (org: string) => `/q/${enc(org)}/home/evaluations`,
  feedbackTab: (org: string) => `/q/${enc(org)}/home/feedback`,
  users: (org: string) => `/q/${enc(org)}/home/users`,
  actionsTab: (org: string) => `/q/${enc(org)}/home/actions`,
  scheduleTab: (org: string) => `/q/${enc(org)}/home/schedule`,
  action: (org: string, actionID: number) => `/q/${enc(org)}/home/actions/${actionID}`,
  board: (org: string, board: string) => `/q/${enc(org)}/boards/${enc(board)}`,
  evaluationSelection: (org: string, board: string, boardID: number) =>
    `/q/${enc(org)}/boards/${enc(board)}/${boardID}/eval/`,
  evaluation: (org: string, board: string, boardID: number, card: string, cardID: number, evalID: number) =>
    `/q/${enc(org)}/boards/${enc(board)}/${boardID}/eval/${enc(card)}/${cardID}/${evalID}`,
  /** The other reading with no evaluation id (docs/decisions/0004): started at Submit, or offline (0730). */
  evaluationToStart: (org: string, boardID: number, cardID: number) =>
    `/q/${enc(org)}/boards/${boardID}/${cardID}/eval/start/-/new`,
  anonymousSelection: (org: string, board: string, boardID: number, anonKey: string) =>
    `/q/${enc(org)}/boards/${enc(board)}/${boardID}/eval/${enc(anonKey)}`,
  anonymousEvaluation: (
    org: string,
    board: string,
    boardID: number,
    card: string,
    cardID: number,
    evalID: number,
    anonKey: string,
  ) => `/q/${enc(org)}/boards/${enc(board)}/${boardID}/eval/${enc(card)}/${cardID}/${evalID}/${enc(anonKey)}`,
  thankYou: (org: string, board: string) => `/q/${enc(org)}/boards/${enc(board)}/thank-you`,
  anonymousBoards: (org: string) => `/q/${enc(org)}/anon-boards`,
  analytics: (org: string) => `/q/${enc(org)}/analytics`,
  admin: (org: string) => `/q/${enc(org)}/admin`,
  /** Our addition (docs/decisions/0587): the organisation's settings, for its Owner. */
  orgSettings: (org: string) => `/q/${enc(org)}/settings`,
  docs: (org: string) => `/q/${enc(org)}/docs`,
  support: (org: string) => `/q/${enc(org)}/support`,
};
