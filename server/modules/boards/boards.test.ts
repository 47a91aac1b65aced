import { expect, it } from 'vitest';
import { MAX_CARDS_PER_BOARD } from '../../../common/constants.ts';
import { messages as rules } from '../../../common/validation.ts';
import {
  buildAnonymousKey,
  buildBoard,
  buildCard,
  buildCards,
  buildTeam,
  unique,
} from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { tenantState } from '../../test/state.ts';
import { cardMessages } from '../shared/cards.ts';
import { planMessages } from '../shared/plan.ts';
import { messages } from './boards.ts';

/** Everything the boards and cards calls can change in one organisation, to check that nothing did. */
const stateOf = tenantState('boards', 'boardCards', 'cards', 'items');

async function cardIdsOn(env: TestEnv, boardId: number) {
  const rows = await env.db
    .selectFrom('board_cards')
    .select('card_id')
    .where('board_id', '=', boardId)
    .orderBy('card_id')
    .execute();
  return rows.map((r) => r.card_id);
}

async function hasBoard(env: TestEnv, cookie: string, cardId: number): Promise<boolean> {
  const answer = await call(env, 'getCards', {}, { cookie });
  expect(answer.status).toBe(200);
  return answer.body.cards.find((c: { id: number }) => c.id === cardId).hasBoard;
}

const NAME_101 = 'n'.repeat(101);

describeEachDatabase('boards', (env) => {
  // ------------------------------------------------------------------------------------------ add-board

  it('adds a board with its cards, answering it with cardIDs in card name order', async () => {
    const team = await buildTeam(env);
    const zulu = await buildCard(env, team.org, { name: 'Zulu checks' });
    const alpha = await buildCard(env, team.org, { name: 'alpha checks' });
    const answer = await call(
      env,
      'addBoard',
      { name: '  Line 1  ', cardIDs: [zulu.id, alpha.id, zulu.id], hasAnonymous: true },
      { cookie: team.admin.cookie },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      board: { id: expect.any(Number), name: 'Line 1', cardIDs: [alpha.id, zulu.id], hasAnonymous: true },
    });
    const row = await env.db
      .selectFrom('boards')
      .selectAll()
      .where('id', '=', answer.body.board.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      org_id: team.org.id,
      name: 'Line 1',
      name_key: 'line 1',
      has_anonymous: 1,
      created_at: env.clock.now(),
      updated_at: env.clock.now(),
      deleted_at: null,
    });
    expect(await cardIdsOn(env, row.id)).toEqual([zulu.id, alpha.id].sort((a, b) => a - b));
    expect(await hasBoard(env, team.admin.cookie, alpha.id)).toBe(true);
  });

  it('takes card and board names of 1 and 100 characters and refuses 0, 101 and forbidden characters', async () => {
    const team = await buildTeam(env);
    for (const name of ['x', 'y'.repeat(100), 'é'.repeat(100)]) {
      const answer = await call(
        env,
        'addBoard',
        { name, cardIDs: [], hasAnonymous: false },
        { cookie: team.admin.cookie },
      );
      expect(answer, name).toMatchObject({ status: 200, body: { board: { name } } });
    }
    const before = await stateOf(env, team.org.id);
    const refusals: [string, string][] = [
      ['', rules.itemNameLength],
      ['   ', rules.itemNameLength],
      [NAME_101, rules.itemNameLength],
      ['Line/1', 'Name contains invalid characters: /'],
      ['a!b#c!', 'Name contains invalid characters: ! #'],
    ];
    for (const [name, errMsg] of refusals) {
      const answer = await call(
        env,
        'addBoard',
        { name, cardIDs: [], hasAnonymous: false },
        { cookie: team.admin.cookie },
      );
      expect(answer, name).toMatchObject({ status: 400, body: { errMsg, errField: 'name' } });
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  it('refuses a live board name already used, whatever its case, but not a deleted one or another org’s', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    await buildBoard(env, team.org, { name: 'Packing Line' });
    await buildBoard(env, other.org, { name: 'Shared Name' });
    const before = await stateOf(env, team.org.id);
    const duplicate = await call(
      env,
      'addBoard',
      { name: 'PACKING line', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(duplicate).toMatchObject({ status: 409, body: { errMsg: rules.nameExists, errField: 'name' } });
    expect(await stateOf(env, team.org.id)).toEqual(before);

    const elsewhere = await call(
      env,
      'addBoard',
      { name: 'shared name', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(elsewhere.status).toBe(200);

    const removed = await call(
      env,
      'deleteBoard',
      { id: elsewhere.body.board.id },
      { cookie: team.admin.cookie },
    );
    expect(removed.status).toBe(200);
    const again = await call(
      env,
      'addBoard',
      { name: 'Shared Name', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(again).toMatchObject({ status: 200, body: { board: { name: 'Shared Name' } } });
  });

  it('holds at most 15 cards: 15 distinct ids (repeats harmless) pass, 16 are refused with nothing written', async () => {
    const team = await buildTeam(env);
    const cards = await buildCards(env, team.org, MAX_CARDS_PER_BOARD + 1);
    const ids = cards.map((c) => c.id);
    const fifteen = ids.slice(0, MAX_CARDS_PER_BOARD);
    const full = await call(
      env,
      'addBoard',
      { name: unique('Full '), cardIDs: [...fifteen, ...fifteen], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(full.status).toBe(200);
    expect(full.body.board.cardIDs).toEqual(fifteen);

    const before = await stateOf(env, team.org.id);
    const over = await call(
      env,
      'addBoard',
      { name: unique('Over '), cardIDs: ids, hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(over).toMatchObject({
      status: 400,
      body: { errMsg: 'The board can only have 15 cards.', errField: 'cardIDs' },
    });
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  it('refuses a card of another organisation, a deleted card or an unknown id, writing nothing', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const mine = await buildCard(env, team.org);
    const theirs = await buildCard(env, other.org);
    const gone = await buildCard(env, team.org);
    expect((await call(env, 'deleteCard', { id: gone.id }, { cookie: team.admin.cookie })).status).toBe(200);
    const before = await stateOf(env, team.org.id);
    const theirsBefore = await stateOf(env, other.org.id);
    for (const stranger of [theirs.id, gone.id, 999_999_999]) {
      const answer = await call(
        env,
        'addBoard',
        { name: unique('Board '), cardIDs: [mine.id, stranger], hasAnonymous: false },
        { cookie: team.admin.cookie },
      );
      expect(answer).toMatchObject({ status: 404, body: { errMsg: cardMessages.cardNotFound } });
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
    expect(await stateOf(env, other.org.id)).toEqual(theirsBefore);
  });

  it('refuses a board past the plan’s total with a clear message, and frees a place on delete', async () => {
    const team = await buildTeam(env, { numDepartments: 2 });
    const add = (name: string) =>
      call(env, 'addBoard', { name, cardIDs: [], hasAnonymous: false }, { cookie: team.admin.cookie });
    const first = await add('One');
    expect((await add('Two')).status).toBe(200);
    const before = await stateOf(env, team.org.id);
    const third = await add('Three');
    expect(third).toMatchObject({
      status: 409,
      body: { errMsg: 'Your plan allows 2 boards. Choose a larger plan to add more.' },
    });
    expect(await stateOf(env, team.org.id)).toEqual(before);
    expect(await call(env, 'getBoardsUsed', {}, { cookie: team.viewer.cookie })).toMatchObject({
      status: 200,
      body: { used: 2, total: 2 },
    });

    await call(env, 'deleteBoard', { id: first.body.board.id }, { cookie: team.admin.cookie });
    expect((await add('Three')).status).toBe(200);

    const single = await buildTeam(env, { numDepartments: 1 });
    await call(
      env,
      'addBoard',
      { name: 'Only', cardIDs: [], hasAnonymous: false },
      { cookie: single.admin.cookie },
    );
    const refused = await call(
      env,
      'addBoard',
      { name: 'Second', cardIDs: [], hasAnonymous: false },
      { cookie: single.admin.cookie },
    );
    expect(refused.body.errMsg).toBe('Your plan allows 1 board. Choose a larger plan to add more.');
  });

  it('refuses malformed board requests with 400 and the exact message, writing nothing', async () => {
    const team = await buildTeam(env);
    const board = await buildBoard(env, team.org);
    const before = await stateOf(env, team.org.id);
    const cases: [Parameters<typeof call>[1], Record<string, unknown>, string, string | undefined][] = [
      [
        'addBoard',
        { name: 'A', cardIDs: 'all', hasAnonymous: false },
        'cardIDs must be an array.',
        'cardIDs',
      ],
      ['addBoard', { name: 'A', cardIDs: [] }, 'hasAnonymous is required.', 'hasAnonymous'],
      [
        'addBoard',
        { name: 'A', cardIDs: [], hasAnonymous: false, orgId: 1 },
        'Unknown field: orgId.',
        undefined,
      ],
      ['editBoard', { id: 'x', name: 'A', cardIDs: [], hasAnonymous: false }, 'id must be a number.', 'id'],
      [
        'editBoard',
        { id: board.id, name: 'A', cardIDs: [1.5], hasAnonymous: false },
        'cardIDs must be an int.',
        'cardIDs',
      ],
      ['deleteBoard', {}, 'id is required.', 'id'],
      ['syncCardBoards', { cardID: 1 }, 'boardIDs is required.', 'boardIDs'],
      [
        'getBoardsUsed',
        { orgName: 'x'.repeat(201) },
        'orgName must be at most 200 characters long.',
        'orgName',
      ],
      ['getBoards', { orgId: 1 }, 'Unknown field: orgId.', undefined],
    ];
    for (const [name, body, errMsg, errField] of cases) {
      const answer = await call(env, name, body, { cookie: team.admin.cookie });
      expect(answer, `${name} ${JSON.stringify(body)}`).toMatchObject({ status: 400, body: { errMsg } });
      expect(answer.body.errField).toBe(errField);
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  it('refuses the board calls without a session (401), and the changes below Administrator (403)', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const board = await buildBoard(env, team.org, { cardIds: [card.id] });
    const before = await stateOf(env, team.org.id);
    const changes = [
      ['addBoard', { name: 'New', cardIDs: [card.id], hasAnonymous: false }],
      ['editBoard', { id: board.id, name: 'Renamed', cardIDs: [], hasAnonymous: true }],
      ['deleteBoard', { id: board.id }],
      ['syncCardBoards', { cardID: card.id, boardIDs: [] }],
    ] as const;
    for (const [name, body] of changes) {
      expect(await call(env, name, body), `${name} without a session`).toMatchObject({
        status: 401,
        body: { errMsg: 'Please sign in to continue.' },
      });
      for (const member of [team.viewer, team.evaluator]) {
        const answer = await call(env, name, body, { cookie: member.cookie });
        expect(answer, `${name} as ${member.role}`).toMatchObject({
          status: 403,
          body: { errMsg: 'Not authorized.' },
        });
      }
    }
    for (const name of ['getBoards', 'getBoardsUsed'] as const) {
      expect((await call(env, name, {})).status, `${name} without a session`).toBe(401);
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  it('answers an unpaid organisation’s board and card calls with 402', async () => {
    const team = await buildTeam(env, { paid: false });
    const card = await buildCard(env, team.org);
    const before = await stateOf(env, team.org.id);
    for (const [name, body] of [
      ['getBoards', {}],
      ['addBoard', { name: 'Line', cardIDs: [card.id], hasAnonymous: false }],
      ['addCard', { name: 'Card' }],
      ['getCard', { cardID: card.id }],
    ] as const) {
      const answer = await call(env, name, body, { cookie: team.admin.cookie });
      expect(answer, name).toMatchObject({ status: 402, body: { errMsg: 'Your account is unpaid.' } });
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  // ------------------------------------------------------------------------------------------ get-boards

  it('lists the live boards of the organisation by name, each with its live cards, to any member', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const [c1, c2, c3] = await buildCards(env, team.org, 3);
    const beta = await buildBoard(env, team.org, { name: 'beta', cardIds: [c2!.id, c1!.id] });
    const alpha = await buildBoard(env, team.org, { name: 'Alpha', hasAnonymous: true, cardIds: [c3!.id] });
    const empty = await buildBoard(env, team.org, { name: 'Gamma' });
    const gone = await buildBoard(env, team.org, { name: 'Deleted', cardIds: [c1!.id] });
    await buildBoard(env, other.org, { name: 'Aardvark' });
    await call(env, 'deleteBoard', { id: gone.id }, { cookie: team.admin.cookie });
    await call(env, 'deleteCard', { id: c3!.id }, { cookie: team.admin.cookie });

    for (const member of [team.viewer, team.evaluator, team.admin, team.owner]) {
      const answer = await call(env, 'getBoards', {}, { cookie: member.cookie });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        boards: [
          { id: alpha.id, name: 'Alpha', cardIDs: [], hasAnonymous: true },
          { id: beta.id, name: 'beta', cardIDs: [c1!.id, c2!.id], hasAnonymous: false },
          { id: empty.id, name: 'Gamma', cardIDs: [], hasAnonymous: false },
        ],
      });
    }
  });

  // ------------------------------------------------------------------------------------ get-boards-used

  it('answers boards used and total; orgName may only name the caller’s own organisation', async () => {
    const team = await buildTeam(env, { numDepartments: 4 });
    const other = await buildTeam(env);
    await buildBoard(env, team.org);
    const gone = await buildBoard(env, team.org);
    await call(env, 'deleteBoard', { id: gone.id }, { cookie: team.admin.cookie });
    for (const body of [
      {},
      { orgName: team.org.name },
      { orgName: team.org.name.toUpperCase() },
      { orgName: '' },
    ]) {
      expect(
        await call(env, 'getBoardsUsed', body, { cookie: team.viewer.cookie }),
        JSON.stringify(body),
      ).toMatchObject({
        status: 200,
        body: { used: 1, total: 4 },
      });
    }
    for (const orgName of [other.org.name, 'No such organisation']) {
      const answer = await call(env, 'getBoardsUsed', { orgName }, { cookie: team.viewer.cookie });
      expect(answer).toMatchObject({ status: 404, body: { errMsg: planMessages.organisationNotFound } });
    }
  });

  // ------------------------------------------------------------------------------------------ edit-board

  it('edits a board: renames it, replaces its cards and updates each card’s hasBoard', async () => {
    const team = await buildTeam(env);
    const [keep, drop, join] = await buildCards(env, team.org, 3);
    const board = await buildBoard(env, team.org, { name: 'Old name', cardIds: [keep!.id, drop!.id] });
    env.clock.advance(1_000);
    const answer = await call(
      env,
      'editBoard',
      { id: board.id, name: 'New name', cardIDs: [join!.id, keep!.id], hasAnonymous: true },
      { cookie: team.admin.cookie },
    );
    expect(answer).toMatchObject({
      status: 200,
      body: { board: { id: board.id, name: 'New name', cardIDs: [keep!.id, join!.id], hasAnonymous: true } },
    });
    const row = await env.db
      .selectFrom('boards')
      .selectAll()
      .where('id', '=', board.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'New name',
      name_key: 'new name',
      has_anonymous: 1,
      updated_at: env.clock.now(),
    });
    expect(await cardIdsOn(env, board.id)).toEqual([keep!.id, join!.id].sort((a, b) => a - b));
    expect(await hasBoard(env, team.admin.cookie, drop!.id)).toBe(false);
    expect(await hasBoard(env, team.admin.cookie, join!.id)).toBe(true);

    // A card that loses its last board has no board; one still on another board keeps it.
    const second = await buildBoard(env, team.org, { cardIds: [keep!.id] });
    await call(
      env,
      'editBoard',
      { id: board.id, name: 'New name', cardIDs: [], hasAnonymous: true },
      { cookie: team.admin.cookie },
    );
    expect(await hasBoard(env, team.admin.cookie, join!.id)).toBe(false);
    expect(await hasBoard(env, team.admin.cookie, keep!.id)).toBe(true);
    expect(await cardIdsOn(env, second.id)).toEqual([keep!.id]);
  });

  it('lets a board keep its own name (or change its case) but not take another board’s', async () => {
    const team = await buildTeam(env);
    const board = await buildBoard(env, team.org, { name: 'Assembly' });
    await buildBoard(env, team.org, { name: 'Welding' });
    const same = await call(
      env,
      'editBoard',
      { id: board.id, name: 'Assembly', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(same).toMatchObject({ status: 200, body: { board: { name: 'Assembly' } } });
    const recased = await call(
      env,
      'editBoard',
      { id: board.id, name: 'ASSEMBLY', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(recased).toMatchObject({ status: 200, body: { board: { name: 'ASSEMBLY' } } });

    const before = await stateOf(env, team.org.id);
    const taken = await call(
      env,
      'editBoard',
      { id: board.id, name: 'welding', cardIDs: [], hasAnonymous: true },
      { cookie: team.admin.cookie },
    );
    expect(taken).toMatchObject({ status: 409, body: { errMsg: rules.nameExists, errField: 'name' } });
    for (const [name, errMsg] of [
      ['', rules.itemNameLength],
      [NAME_101, rules.itemNameLength],
      ['Line: 1', 'Name contains invalid characters: :'],
    ]) {
      const answer = await call(
        env,
        'editBoard',
        { id: board.id, name: name!, cardIDs: [], hasAnonymous: true },
        { cookie: team.admin.cookie },
      );
      expect(answer, name).toMatchObject({ status: 400, body: { errMsg, errField: 'name' } });
    }
    const longest = 'z'.repeat(100);
    expect(await stateOf(env, team.org.id)).toEqual(before);
    const ok = await call(
      env,
      'editBoard',
      { id: board.id, name: longest, cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(ok).toMatchObject({ status: 200, body: { board: { name: longest } } });
  });

  it('keeps an edited board to 15 cards, writing nothing when it would hold 16', async () => {
    const team = await buildTeam(env);
    const cards = await buildCards(env, team.org, MAX_CARDS_PER_BOARD + 1);
    const board = await buildBoard(env, team.org, { cardIds: [cards[0]!.id] });
    const ids = cards.map((c) => c.id);
    const fifteen = await call(
      env,
      'editBoard',
      { id: board.id, name: board.name, cardIDs: ids.slice(0, 15), hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(fifteen.status).toBe(200);
    expect(fifteen.body.board.cardIDs).toHaveLength(15);
    const before = await stateOf(env, team.org.id);
    const sixteen = await call(
      env,
      'editBoard',
      { id: board.id, name: 'Renamed', cardIDs: ids, hasAnonymous: true },
      { cookie: team.admin.cookie },
    );
    expect(sixteen).toMatchObject({
      status: 400,
      body: { errMsg: messages.boardCardLimit, errField: 'cardIDs' },
    });
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  it('answers another organisation’s board, a deleted board or another org’s card as not found, changing nothing', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const theirCard = await buildCard(env, other.org);
    const theirBoard = await buildBoard(env, other.org, { cardIds: [theirCard.id] });
    const myCard = await buildCard(env, team.org);
    const myBoard = await buildBoard(env, team.org, { cardIds: [myCard.id] });
    const deleted = await buildBoard(env, team.org);
    await call(env, 'deleteBoard', { id: deleted.id }, { cookie: team.admin.cookie });
    const mine = await stateOf(env, team.org.id);
    const theirs = await stateOf(env, other.org.id);

    for (const id of [theirBoard.id, deleted.id]) {
      const edit = await call(
        env,
        'editBoard',
        { id, name: 'Taken over', cardIDs: [myCard.id], hasAnonymous: true },
        { cookie: team.admin.cookie },
      );
      expect(edit).toMatchObject({ status: 404, body: { errMsg: 'The board was not found.' } });
      const remove = await call(env, 'deleteBoard', { id }, { cookie: team.admin.cookie });
      expect(remove).toMatchObject({ status: 404, body: { errMsg: 'The board was not found.' } });
    }
    const stolenCard = await call(
      env,
      'editBoard',
      { id: myBoard.id, name: 'Mine', cardIDs: [theirCard.id], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(stolenCard).toMatchObject({ status: 404, body: { errMsg: cardMessages.cardNotFound } });
    expect(await stateOf(env, team.org.id)).toEqual(mine);
    expect(await stateOf(env, other.org.id)).toEqual(theirs);
  });

  it('revokes a board’s anonymous keys when anonymous evaluation is turned off', async () => {
    const team = await buildTeam(env);
    const board = await buildBoard(env, team.org, { hasAnonymous: true });
    const other = await buildBoard(env, team.org, { hasAnonymous: true });
    const key = await buildAnonymousKey(env, team.org, board.id);
    const otherKey = await buildAnonymousKey(env, team.org, other.id);
    const revokedAt = async (id: number) =>
      (
        await env.db
          .selectFrom('anonymous_keys')
          .select('revoked_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).revoked_at;

    await call(
      env,
      'editBoard',
      { id: board.id, name: 'Renamed', cardIDs: [], hasAnonymous: true },
      { cookie: team.admin.cookie },
    );
    expect(await revokedAt(key.id)).toBeNull();
    env.clock.advance(5_000);
    await call(
      env,
      'editBoard',
      { id: board.id, name: 'Renamed', cardIDs: [], hasAnonymous: false },
      { cookie: team.admin.cookie },
    );
    expect(await revokedAt(key.id)).toBe(env.clock.now());
    expect(await revokedAt(otherKey.id)).toBeNull();
  });

  // ---------------------------------------------------------------------------------------- delete-board

  it('soft-deletes a board: gone from the list, off every card, its keys revoked, its row kept for history', async () => {
    const team = await buildTeam(env);
    const [only, shared] = await buildCards(env, team.org, 2);
    const board = await buildBoard(env, team.org, { hasAnonymous: true, cardIds: [only!.id, shared!.id] });
    const stays = await buildBoard(env, team.org, { cardIds: [shared!.id] });
    const key = await buildAnonymousKey(env, team.org, board.id);
    env.clock.advance(1_000);

    const answer = await call(env, 'deleteBoard', { id: board.id }, { cookie: team.admin.cookie });
    expect(answer).toEqual(expect.objectContaining({ status: 200, body: { id: board.id } }));
    const row = await env.db
      .selectFrom('boards')
      .selectAll()
      .where('id', '=', board.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: board.name, deleted_at: env.clock.now() });
    expect(await cardIdsOn(env, board.id)).toEqual([]);
    expect(
      (
        await env.db
          .selectFrom('anonymous_keys')
          .select('revoked_at')
          .where('id', '=', key.id)
          .executeTakeFirstOrThrow()
      ).revoked_at,
    ).toBe(env.clock.now());
    const boards = await call(env, 'getBoards', {}, { cookie: team.viewer.cookie });
    expect(boards.body.boards.map((b: { id: number }) => b.id)).toEqual([stays.id]);
    expect(await hasBoard(env, team.admin.cookie, only!.id)).toBe(false);
    expect(await hasBoard(env, team.admin.cookie, shared!.id)).toBe(true);

    const again = await call(env, 'deleteBoard', { id: board.id }, { cookie: team.admin.cookie });
    expect(again).toMatchObject({ status: 404, body: { errMsg: 'The board was not found.' } });
  });

  // ----------------------------------------------------------------------------------- sync-card-boards

  it('replaces the boards a card is on, answering them in board name order', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const neighbour = await buildCard(env, team.org);
    const leave = await buildBoard(env, team.org, { name: 'Leave', cardIds: [card.id, neighbour.id] });
    const stay = await buildBoard(env, team.org, { name: 'Stay', cardIds: [card.id] });
    const join = await buildBoard(env, team.org, { name: 'Join', cardIds: [neighbour.id] });

    const answer = await call(
      env,
      'syncCardBoards',
      { cardID: card.id, boardIDs: [stay.id, join.id, stay.id] },
      { cookie: team.admin.cookie },
    );
    expect(answer).toMatchObject({ status: 200, body: { boardIDs: [join.id, stay.id] } });
    expect(await cardIdsOn(env, leave.id)).toEqual([neighbour.id]);
    expect(await cardIdsOn(env, stay.id)).toEqual([card.id]);
    expect(await cardIdsOn(env, join.id)).toEqual([card.id, neighbour.id].sort((a, b) => a - b));
    expect(await hasBoard(env, team.admin.cookie, card.id)).toBe(true);

    const none = await call(
      env,
      'syncCardBoards',
      { cardID: card.id, boardIDs: [] },
      { cookie: team.admin.cookie },
    );
    expect(none).toMatchObject({ status: 200, body: { boardIDs: [] } });
    expect(await hasBoard(env, team.admin.cookie, card.id)).toBe(false);
    expect(await cardIdsOn(env, join.id)).toEqual([neighbour.id]);
  });

  it('refuses to put a card on a board that already has 15, writing nothing; a card already there stays', async () => {
    const team = await buildTeam(env);
    const cards = await buildCards(env, team.org, MAX_CARDS_PER_BOARD);
    const full = await buildBoard(env, team.org, { cardIds: cards.map((c) => c.id) });
    const roomy = await buildBoard(env, team.org);
    const newcomer = await buildCard(env, team.org);
    const before = await stateOf(env, team.org.id);
    const refused = await call(
      env,
      'syncCardBoards',
      { cardID: newcomer.id, boardIDs: [roomy.id, full.id] },
      { cookie: team.admin.cookie },
    );
    expect(refused).toMatchObject({
      status: 409,
      body: { errMsg: 'The board can only have 15 cards.', errField: 'boardIDs' },
    });
    expect(await stateOf(env, team.org.id)).toEqual(before);

    const member = cards[0]!;
    const kept = await call(
      env,
      'syncCardBoards',
      { cardID: member.id, boardIDs: [full.id, roomy.id] },
      { cookie: team.admin.cookie },
    );
    expect(kept.status).toBe(200);
    expect(kept.body.boardIDs.sort()).toEqual([full.id, roomy.id].sort());
    expect(await cardIdsOn(env, full.id)).toHaveLength(15);
  });

  it('answers another organisation’s or a deleted card or board as not found, changing nothing', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const board = await buildBoard(env, team.org, { cardIds: [card.id] });
    const theirCard = await buildCard(env, other.org);
    const theirBoard = await buildBoard(env, other.org, { cardIds: [theirCard.id] });
    const deletedBoard = await buildBoard(env, team.org);
    await call(env, 'deleteBoard', { id: deletedBoard.id }, { cookie: team.admin.cookie });
    const deletedCard = await buildCard(env, team.org);
    await call(env, 'deleteCard', { id: deletedCard.id }, { cookie: team.admin.cookie });
    const mine = await stateOf(env, team.org.id);
    const theirs = await stateOf(env, other.org.id);

    for (const cardID of [theirCard.id, deletedCard.id]) {
      const answer = await call(
        env,
        'syncCardBoards',
        { cardID, boardIDs: [board.id] },
        { cookie: team.admin.cookie },
      );
      expect(answer).toMatchObject({ status: 404, body: { errMsg: cardMessages.cardNotFound } });
    }
    for (const boardId of [theirBoard.id, deletedBoard.id]) {
      const answer = await call(
        env,
        'syncCardBoards',
        { cardID: card.id, boardIDs: [boardId] },
        { cookie: team.admin.cookie },
      );
      expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.boardNotFound } });
    }
    expect(await stateOf(env, team.org.id)).toEqual(mine);
    expect(await stateOf(env, other.org.id)).toEqual(theirs);
  });

  // ----------------------------------------------------------------------------------------- concurrency

  it('leaves a board at 15 when two admins add the 15th and 16th card at once', async () => {
    const team = await buildTeam(env);
    const cards = await buildCards(env, team.org, MAX_CARDS_PER_BOARD - 1);
    const board = await buildBoard(env, team.org, { cardIds: cards.map((c) => c.id) });
    const [fifteenth, sixteenth] = [await buildCard(env, team.org), await buildCard(env, team.org)];

    const answers = await Promise.all([
      call(
        env,
        'syncCardBoards',
        { cardID: fifteenth.id, boardIDs: [board.id] },
        { cookie: team.admin.cookie },
      ),
      call(
        env,
        'syncCardBoards',
        { cardID: sixteenth.id, boardIDs: [board.id] },
        { cookie: team.owner.cookie },
      ),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.errMsg).toBe(messages.boardCardLimit);
    expect(await cardIdsOn(env, board.id)).toHaveLength(MAX_CARDS_PER_BOARD);
  });

  it('fills a board to exactly 15 when twelve admins each add a card to it at once', async () => {
    const team = await buildTeam(env);
    const cards = await buildCards(env, team.org, MAX_CARDS_PER_BOARD - 3);
    const board = await buildBoard(env, team.org, { cardIds: cards.map((c) => c.id) });
    const newcomers = await buildCards(env, team.org, 12);
    const cookies = [team.admin.cookie, team.owner.cookie];
    const answers = await Promise.all(
      newcomers.map((card, i) =>
        call(env, 'syncCardBoards', { cardID: card.id, boardIDs: [board.id] }, { cookie: cookies[i % 2] }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409 && a.body.errMsg === messages.boardCardLimit)).toHaveLength(
      9,
    );
    expect(await cardIdsOn(env, board.id)).toHaveLength(MAX_CARDS_PER_BOARD);
  });

  it('leaves a board at 15 when one admin edits it to 15 cards while another adds a card to it', async () => {
    const team = await buildTeam(env);
    const cards = await buildCards(env, team.org, MAX_CARDS_PER_BOARD + 1);
    const board = await buildBoard(env, team.org, { cardIds: cards.slice(0, 14).map((c) => c.id) });
    const extra = await buildCard(env, team.org);
    const answers = await Promise.all([
      call(
        env,
        'editBoard',
        { id: board.id, name: board.name, cardIDs: cards.slice(0, 15).map((c) => c.id), hasAnonymous: false },
        { cookie: team.admin.cookie },
      ),
      call(env, 'syncCardBoards', { cardID: extra.id, boardIDs: [board.id] }, { cookie: team.owner.cookie }),
    ]);
    expect(answers[0]!.status).toBe(200);
    // Whichever ran second saw the first: the edit drops the added card, or the board was already full.
    expect([200, 409]).toContain(answers[1]!.status);
    expect(await cardIdsOn(env, board.id)).toHaveLength(MAX_CARDS_PER_BOARD);
  });

  it('adds one board, not two, when two admins take the plan’s last place or the same name at once', async () => {
    const team = await buildTeam(env, { numDepartments: 3 });
    await buildBoard(env, team.org);
    await buildBoard(env, team.org);
    const lastPlace = await Promise.all([
      call(
        env,
        'addBoard',
        { name: 'Left', cardIDs: [], hasAnonymous: false },
        { cookie: team.admin.cookie },
      ),
      call(
        env,
        'addBoard',
        { name: 'Right', cardIDs: [], hasAnonymous: false },
        { cookie: team.owner.cookie },
      ),
    ]);
    expect(lastPlace.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await call(env, 'getBoardsUsed', {}, { cookie: team.admin.cookie })).toMatchObject({
      body: { used: 3, total: 3 },
    });

    const crowd = await buildTeam(env, { numDepartments: 3 });
    await buildBoard(env, crowd.org);
    const rush = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(
          env,
          'addBoard',
          { name: `Rush ${i}`, cardIDs: [], hasAnonymous: false },
          { cookie: i % 2 ? crowd.admin.cookie : crowd.owner.cookie },
        ),
      ),
    );
    expect(rush.filter((a) => a.status === 200)).toHaveLength(2);
    expect((await stateOf(env, crowd.org.id)).boards).toHaveLength(3);

    const roomy = await buildTeam(env);
    const sameName = await Promise.all([
      call(
        env,
        'addBoard',
        { name: 'Dock', cardIDs: [], hasAnonymous: false },
        { cookie: roomy.admin.cookie },
      ),
      call(
        env,
        'addBoard',
        { name: 'DOCK', cardIDs: [], hasAnonymous: false },
        { cookie: roomy.owner.cookie },
      ),
    ]);
    expect(sameName.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(sameName.find((a) => a.status === 409)!.body).toEqual({
      errMsg: rules.nameExists,
      errField: 'name',
    });
    expect((await stateOf(env, roomy.org.id)).boards).toHaveLength(1);
  });
});
