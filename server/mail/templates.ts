/** The emails Checkboard sends. Each has a plain-text body (with the link on its own line) and HTML. */
import type { Mail } from './mailer.ts';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

function mail(
  to: string,
  subject: string,
  lines: string[],
  link: { url: string; label: string },
  after: string[],
): Mail {
  const text = [...lines, '', link.url, '', ...after, '', 'Checkboard'].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 16px;background:#087f5b;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="font-size:13px;color:#555">Or open this address: ${escapeHtml(link.url)}</p>
${after.map((l) => `<p style="font-size:13px;color:#555">${escapeHtml(l)}</p>`).join('\n')}
<p>Checkboard</p></body></html>`;
  return { to, subject, text, html };
}

export function verificationMail(to: string, orgName: string, url: string): Mail {
  return mail(
    to,
    'Verify your email address for Checkboard',
    [`Welcome to Checkboard! Please verify your email address to finish setting up ${orgName}.`],
    { url, label: 'Verify email address' },
    ['This link works once and expires in 24 hours. If you did not sign up, you can ignore this email.'],
  );
}

export function passwordResetMail(to: string, url: string): Mail {
  return mail(
    to,
    'Reset your Checkboard password',
    [
      'Someone asked to reset the password of your Checkboard account. Use the link below to choose a new one.',
    ],
    { url, label: 'Reset password' },
    ['This link works once and expires in 1 hour. If you did not ask for it, you can ignore this email.'],
  );
}

export function invitationMail(to: string, orgName: string, invitedBy: string, url: string): Mail {
  return mail(
    to,
    `You are invited to ${orgName} on Checkboard`,
    [`${invitedBy} invited you to join ${orgName} on Checkboard. Choose a password to get started.`],
    { url, label: 'Accept invitation' },
    ['This link works once and expires in 7 days.'],
  );
}

/** To a registered address someone used to sign up (issue 10): the answer to the sign-up reveals nothing. */
export function signupAttemptMail(to: string, loginUrl: string): Mail {
  return mail(
    to,
    'Someone tried to sign up to Checkboard with your address',
    [
      'Someone tried to create a new Checkboard organisation with this email address, which already has an account.',
      'If it was you, sign in to your organisation instead; if you forgot your password, choose "Forgot password" on the sign-in page.',
    ],
    { url: loginUrl, label: 'Sign in' },
    ['If it was not you, you can ignore this email: nothing was changed.'],
  );
}

/**
 * To a registered address an administrator of another organisation tried to add (issue 10): their answer
 * reveals nothing, and no invitation (which would set a password) is sent.
 */
export function addAttemptMail(to: string, orgName: string, invitedBy: string, loginUrl: string): Mail {
  return mail(
    to,
    `Someone tried to add you to ${orgName} on Checkboard`,
    [
      `${invitedBy} tried to add this email address to ${orgName} on Checkboard, but it already belongs to a Checkboard account, and an address can belong to one organisation only.`,
      `If you should join ${orgName}, ask them to add another address of yours. Your own account is unchanged.`,
    ],
    { url: loginUrl, label: 'Sign in to your account' },
    ['If you do not know them, you can ignore this email.'],
  );
}

/** What the action emails say about the action (issue 12). */
export interface ActionMailFacts {
  title: string;
  boardName: string;
  cardName: string | null;
  dueDate: string;
  priority: string;
  orgName: string;
}

function actionLines(facts: ActionMailFacts): string[] {
  const where = facts.cardName ? `${facts.boardName} › ${facts.cardName}` : facts.boardName;
  return [`Action: ${facts.title}`, `Where: ${where}`, `Due: ${facts.dueDate} · Priority: ${facts.priority}`];
}

export function actionAssignedMail(to: string, facts: ActionMailFacts, raisedBy: string, url: string): Mail {
  return mail(
    to,
    `Action assigned to you: ${facts.title}`,
    [
      `${raisedBy} assigned you a corrective action in ${facts.orgName} on Checkboard.`,
      ...actionLines(facts),
    ],
    { url, label: 'Open the action' },
    ['When it is fixed, close it as Done with a note on what was done.'],
  );
}

export function actionDueMail(to: string, facts: ActionMailFacts, url: string): Mail {
  return mail(
    to,
    `Action due today: ${facts.title}`,
    [`A corrective action assigned to you in ${facts.orgName} is due today.`, ...actionLines(facts)],
    { url, label: 'Open the action' },
    ['You get this reminder once, on the day the action falls due.'],
  );
}

export function actionOverdueMail(to: string, facts: ActionMailFacts, url: string): Mail {
  return mail(
    to,
    `Action overdue: ${facts.title}`,
    [`A corrective action assigned to you in ${facts.orgName} is overdue.`, ...actionLines(facts)],
    { url, label: 'Open the action' },
    ['You get this reminder once, the day after the action fell due.'],
  );
}

/** Schedules (issue 13, docs/decisions/0702): what a reminder says about one occurrence. */
export interface ScheduleMailFacts {
  orgName: string;
  boardName: string;
  cardName: string;
  date: string;
  /** "06:00-10:00" or "all day", in the organisation's zone. */
  window: string;
  timeZone: string;
}

const scheduleLines = (facts: ScheduleMailFacts) => [
  `Board: ${facts.boardName}`,
  `Card: ${facts.cardName}`,
  `When: ${facts.date}, ${facts.window} (${facts.timeZone})`,
];

export function scheduleOpenMail(to: string, facts: ScheduleMailFacts, url: string): Mail {
  return mail(
    to,
    `Check due now: ${facts.cardName} on ${facts.boardName}`,
    [`A scheduled check assigned to you in ${facts.orgName} is due now.`, ...scheduleLines(facts)],
    { url, label: 'Open the board' },
    ['You get this reminder once, when the window opens.'],
  );
}

export function scheduleMissedMail(to: string, facts: ScheduleMailFacts, url: string): Mail {
  return mail(
    to,
    `Check missed: ${facts.cardName} on ${facts.boardName}`,
    [
      `A scheduled check assigned to you in ${facts.orgName} was missed: its window ended without an evaluation.`,
      ...scheduleLines(facts),
    ],
    { url, label: 'Open the board' },
    ['An evaluation before the next one is due still counts, as late.'],
  );
}

export function scheduleDigestMail(
  to: string,
  digest: { orgName: string; day: string; missed: { boardName: string; cardName: string; window: string }[] },
  url: string,
): Mail {
  return mail(
    to,
    `Missed checks on ${digest.day}: ${digest.missed.length} in ${digest.orgName}`,
    [
      `${digest.missed.length} scheduled check${digest.missed.length === 1 ? ' was' : 's were'} missed in ${digest.orgName} on ${digest.day}:`,
      ...digest.missed.map((m) => `${m.boardName} — ${m.cardName} (${m.window})`),
    ],
    { url, label: 'Open the schedule' },
    ['Administrators get this digest once a day, when a day had missed checks.'],
  );
}
