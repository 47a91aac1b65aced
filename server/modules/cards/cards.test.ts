import { expect, it } from 'vitest';
import { CARDS_PER_DEPARTMENT } from '../../../common/constants.ts';
import { messages as rules } from '../../../common/validation.ts';
import { buildBoard, buildCard, buildCards, buildTeam, signIn, unique } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { tenantState } from '../../test/state.ts';
import { boardMessages } from '../shared/boards.ts';
import { messages } from './cards.ts';

const DAY = 24 * 60 * 60_000;
const NAME_101 = 'n'.repeat(101);

const stateOf = tenantState('boards', 'boardCards', 'cards', 'items');

async function cardRow(env: TestEnv, id: number) {
  return env.db.selectFrom('cards').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const item = (over: Record<string, unknown>) => ({
  id: expect.any(Number),
  cardID: expect.any(Number),
  type: 'pass_fail',
  content: expect.any(String),
  na: false,
  order: expect.any(Number),
  isDeleted: false,
  photoOnFail: false,
  noteOnFail: false,
  ...over,
});

describeEachDatabase('cards', (env) => {
  // -------------------------------------------------------------------------------------------- add-card

  it('adds a card with no items and no board', async () => {
    const team = await buildTeam(env);
    const answer = await call(env, 'addCard', { name: '  Daily checks ' }, { cookie: team.admin.cookie });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      card: {
        id: expect.any(Number),
        name: 'Daily checks',
        hasBoard: false,
        cardItems: [],
        signOffRequired: false,
      },
    });
    expect(await cardRow(env, answer.body.card.id)).toMatchObject({
      org_id: team.org.id,
      name: 'Daily checks',
      name_key: 'daily checks',
      created_at: env.clock.now(),
      updated_at: env.clock.now(),
      deleted_at: null,
    });
  });

  it('takes names of 1 and 100 characters and refuses 0, 101 and forbidden characters, writing nothing', async () => {
    const team = await buildTeam(env);
    for (const name of ['c', 'c'.repeat(100), '😀'.repeat(100)]) {
      const answer = await call(env, 'addCard', { name }, { cookie: team.admin.cookie });
      expect(answer, name).toMatchObject({ status: 200, body: { card: { name } } });
    }
    const before = await stateOf(env, team.org.id);
    for (const [name, errMsg] of [
      ['', rules.itemNameLength],
      ['  ', rules.itemNameLength],
      [NAME_101, rules.itemNameLength],
      ['50% done', 'Name contains invalid characters: %'],
      ['<b>"x"</b>', 'Name contains invalid characters: < > " /'],
    ] as const) {
      const answer = await call(env, 'addCard', { name }, { cookie: team.admin.cookie });
      expect(answer, name).toMatchObject({ status: 400, body: { errMsg, errField: 'name' } });
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  it('refuses a live card name already used, whatever its case, but not a deleted one or another org’s', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const existing = await buildCard(env, team.org, { name: 'Forklift' });
    await buildCard(env, other.org, { name: 'Ladder' });
    const before = await stateOf(env, team.org.id);
    const duplicate = await call(env, 'addCard', { name: 'FORKLIFT' }, { cookie: team.admin.cookie });
    expect(duplicate).toMatchObject({
      status: 409,
      body: { errMsg: 'The name already exists.', errField: 'name' },
    });
    expect(await stateOf(env, team.org.id)).toEqual(before);

    expect((await call(env, 'addCard', { name: 'ladder' }, { cookie: team.admin.cookie })).status).toBe(200);
    await call(env, 'deleteCard', { id: existing.id }, { cookie: team.admin.cookie });
    const reused = await call(env, 'addCard', { name: 'Forklift' }, { cookie: team.admin.cookie });
    expect(reused).toMatchObject({ status: 200, body: { card: { name: 'Forklift' } } });
  });

  it('refuses a card past the plan’s total (departments × 15), and frees a place on delete', async () => {
    const team = await buildTeam(env, { numDepartments: 1 });
    const cards = await buildCards(env, team.org, CARDS_PER_DEPARTMENT - 1);
    const fifteenth = await call(env, 'addCard', { name: 'Fifteenth' }, { cookie: team.admin.cookie });
    expect(fifteenth.status).toBe(200);
    const before = await stateOf(env, team.org.id);
    const sixteenth = await call(env, 'addCard', { name: 'Sixteenth' }, { cookie: team.admin.cookie });
    expect(sixteenth).toMatchObject({
      status: 409,
      body: { errMsg: 'Your plan allows 15 cards. Choose a larger plan to add more.' },
    });
    expect(await stateOf(env, team.org.id)).toEqual(before);
    expect(await call(env, 'getCardsUsed', {}, { cookie: team.admin.cookie })).toMatchObject({
      status: 200,
      body: { used: 15, total: 15 },
    });
    await call(env, 'deleteCard', { id: cards[0]!.id }, { cookie: team.admin.cookie });
    expect((await call(env, 'addCard', { name: 'Sixteenth' }, { cookie: team.admin.cookie })).status).toBe(
      200,
    );
  });

  it('adds one card, not two, when two admins take the same name at once', async () => {
    const team = await buildTeam(env);
    const answers = await Promise.all([
      call(env, 'addCard', { name: 'Twins' }, { cookie: team.admin.cookie }),
      call(env, 'addCard', { name: 'TWINS' }, { cookie: team.owner.cookie }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body).toEqual({
      errMsg: rules.nameExists,
      errField: 'name',
    });
    expect((await stateOf(env, team.org.id)).cards).toHaveLength(1);
  });

  // ------------------------------------------------------------------------------------ get-cards-used

  it('answers cards used and total to an admin; orgName may only name the caller’s own organisation', async () => {
    const team = await buildTeam(env, { numDepartments: 3 });
    const other = await buildTeam(env);
    await buildCards(env, team.org, 2);
    const gone = await buildCard(env, team.org);
    await call(env, 'deleteCard', { id: gone.id }, { cookie: team.admin.cookie });
    for (const body of [{}, { orgName: team.org.name.toLowerCase() }]) {
      expect(await call(env, 'getCardsUsed', body, { cookie: team.admin.cookie })).toMatchObject({
        status: 200,
        body: { used: 2, total: 45 },
      });
    }
    const elsewhere = await call(
      env,
      'getCardsUsed',
      { orgName: other.org.name },
      { cookie: team.admin.cookie },
    );
    expect(elsewhere).toMatchObject({ status: 404, body: { errMsg: messages.organisationNotFound } });
  });

  // ------------------------------------------------------------------------------------------- get-cards

  it('lists the live cards by name, each with hasBoard and its live items in order', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const zed = await buildCard(env, team.org, {
      name: 'zed',
      items: [{ type: 'pass_fail' }, { type: 'instruction' }, { type: 'text' }],
    });
    const able = await buildCard(env, team.org, { name: 'Able', items: [] });
    const gone = await buildCard(env, team.org, { name: 'Gone' });
    await buildCard(env, other.org, { name: 'Aaa' });
    await buildBoard(env, team.org, { cardIds: [zed.id] });
    await call(env, 'deleteCard', { id: gone.id }, { cookie: team.admin.cookie });
    // Reorder zed's items and delete one: the list follows `order` and leaves the deleted one out.
    await env.db.updateTable('card_items').set({ position: 9 }).where('id', '=', zed.itemIds[0]!).execute();
    await env.db.updateTable('card_items').set({ is_deleted: 1 }).where('id', '=', zed.itemIds[2]!).execute();

    const answer = await call(env, 'getCards', {}, { cookie: team.admin.cookie });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      cards: [
        { id: able.id, name: 'Able', hasBoard: false, cardItems: [], signOffRequired: false },
        {
          id: zed.id,
          name: 'zed',
          hasBoard: true,
          signOffRequired: false,
          cardItems: [
            item({
              id: zed.itemIds[1],
              cardID: zed.id,
              type: 'instruction',
              content: '<p>instruction 1</p>',
              order: 1,
            }),
            item({
              id: zed.itemIds[0],
              cardID: zed.id,
              type: 'pass_fail',
              content: '<p>pass_fail 0</p>',
              order: 9,
            }),
          ],
        },
      ],
    });
  });

  // -------------------------------------------------------------------------------------------- get-card

  it('answers one live card with its live items to any member, and others’ or deleted cards as not found', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const card = await buildCard(env, team.org, {
      items: [
        { type: 'instruction', content: '<p>Read me</p>' },
        { type: 'pass_fail', na: true },
      ],
    });
    await buildBoard(env, team.org, { cardIds: [card.id] });
    for (const member of [team.viewer, team.evaluator, team.admin]) {
      const answer = await call(env, 'getCard', { cardID: card.id }, { cookie: member.cookie });
      expect(answer, member.role).toEqual(
        expect.objectContaining({
          status: 200,
          body: {
            card: {
              id: card.id,
              name: card.name,
              hasBoard: true,
              signOffRequired: false,
              cardItems: [
                item({
                  id: card.itemIds[0],
                  cardID: card.id,
                  type: 'instruction',
                  content: '<p>Read me</p>',
                  order: 0,
                }),
                item({ id: card.itemIds[1], cardID: card.id, na: true, order: 1 }),
              ],
            },
          },
        }),
      );
    }
    const theirs = await buildCard(env, other.org);
    const gone = await buildCard(env, team.org);
    await call(env, 'deleteCard', { id: gone.id }, { cookie: team.admin.cookie });
    for (const cardID of [theirs.id, gone.id, 987_654_321]) {
      const answer = await call(env, 'getCard', { cardID }, { cookie: team.viewer.cookie });
      expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.cardNotFound } });
    }
  });

  // ------------------------------------------------------------------------------- get-cards-by-board-id

  it('answers a board’s live cards by name with their live items, to any member', async () => {
    const team = await buildTeam(env);
    const beta = await buildCard(env, team.org, { name: 'Beta' });
    const alpha = await buildCard(env, team.org, { name: 'alpha', items: [{ type: 'numeric' }] });
    const gone = await buildCard(env, team.org, { name: 'Aaa gone' });
    const elsewhere = await buildCard(env, team.org, { name: 'Elsewhere' });
    const board = await buildBoard(env, team.org, { cardIds: [beta.id, gone.id, alpha.id] });
    await buildBoard(env, team.org, { cardIds: [elsewhere.id] });
    await call(env, 'deleteCard', { id: gone.id }, { cookie: team.admin.cookie });

    const answer = await call(
      env,
      'getCardsByBoardId',
      { boardID: board.id },
      { cookie: team.viewer.cookie },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.cards.map((c: { name: string }) => c.name)).toEqual(['alpha', 'Beta']);
    expect(answer.body.cards[0]).toEqual({
      id: alpha.id,
      name: 'alpha',
      hasBoard: true,
      signOffRequired: false,
      cardItems: [
        item({
          id: alpha.itemIds[0],
          cardID: alpha.id,
          type: 'numeric',
          content: '<p>numeric 0</p>',
          order: 0,
        }),
      ],
    });
    expect(answer.body.cards[1].cardItems).toHaveLength(3);

    const empty = await buildBoard(env, team.org);
    expect(
      await call(env, 'getCardsByBoardId', { boardID: empty.id }, { cookie: team.viewer.cookie }),
    ).toMatchObject({
      status: 200,
      body: { cards: [] },
    });
  });

  it('answers another organisation’s or a deleted board as not found on get-cards-by-board-id', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const theirCard = await buildCard(env, other.org);
    const theirBoard = await buildBoard(env, other.org, { cardIds: [theirCard.id] });
    const gone = await buildBoard(env, team.org);
    await call(env, 'deleteBoard', { id: gone.id }, { cookie: team.admin.cookie });
    for (const boardID of [theirBoard.id, gone.id]) {
      const answer = await call(env, 'getCardsByBoardId', { boardID }, { cookie: team.admin.cookie });
      expect(answer).toMatchObject({ status: 404, body: { errMsg: boardMessages.boardNotFound } });
    }
  });

  // ----------------------------------------------------------------------------------- get-deleted-cards

  it('answers cards deleted since startTime, at most 31 days back, with their items', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const old = await buildCard(env, team.org, { name: 'Old' });
    const recent = await buildCard(env, team.org, { name: 'Recent', items: [{ type: 'pass_fail' }] });
    const live = await buildCard(env, team.org, { name: 'Live' });
    const theirs = await buildCard(env, other.org);
    await buildBoard(env, team.org, { cardIds: [recent.id] });
    const oldDeletedAt = env.clock.now();
    await call(env, 'deleteCard', { id: old.id }, { cookie: team.admin.cookie });
    await call(env, 'deleteCard', { id: theirs.id }, { cookie: other.admin.cookie });

    env.clock.advance(20 * DAY);
    const admin = await signIn(env, team.admin);
    const viewer = await signIn(env, team.viewer);
    const recentDeletedAt = env.clock.now();
    await call(env, 'deleteCard', { id: recent.id }, { cookie: admin });
    const iso = (ms: number) => new Date(ms).toISOString();
    const names = async (startTime: string) => {
      const answer = await call(env, 'getDeletedCards', { startTime }, { cookie: viewer });
      expect(answer.status).toBe(200);
      return answer.body.cards.map((c: { name: string }) => c.name);
    };
    expect(await names(iso(oldDeletedAt))).toEqual(['Old', 'Recent']);
    expect(await names(iso(oldDeletedAt + 1))).toEqual(['Recent']);
    expect(await names(iso(recentDeletedAt + 1))).toEqual([]);
    const full = await call(env, 'getDeletedCards', { startTime: iso(0) }, { cookie: viewer });
    expect(full.body.cards[1]).toEqual({
      id: recent.id,
      name: 'Recent',
      hasBoard: false,
      signOffRequired: false,
      cardItems: [
        item({ id: recent.itemIds[0], cardID: recent.id, content: '<p>pass_fail 0</p>', order: 0 }),
      ],
    });
    expect(full.body.cards.map((c: { id: number }) => c.id)).not.toContain(live.id);

    // Eleven days later the first deletion is 31 days and a moment old: out of the window, whatever is asked.
    env.clock.advance(11 * DAY + 1);
    const later = await signIn(env, team.viewer);
    const answer = await call(env, 'getDeletedCards', { startTime: iso(0) }, { cookie: later });
    expect(answer.body.cards.map((c: { name: string }) => c.name)).toEqual(['Recent']);
  });

  // ------------------------------------------------------------------------------------------- edit-card

  it('renames a card found by its old name (any case), answering it with its items and boards', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, { name: 'Weekly' });
    await buildBoard(env, team.org, { cardIds: [card.id] });
    env.clock.advance(1_000);
    const answer = await call(
      env,
      'editCard',
      { oldName: 'WEEKLY', newName: 'Weekly audit' },
      { cookie: team.admin.cookie },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.card).toMatchObject({ id: card.id, name: 'Weekly audit', hasBoard: true });
    expect(answer.body.card.cardItems).toHaveLength(3);
    expect(await cardRow(env, card.id)).toMatchObject({
      name: 'Weekly audit',
      name_key: 'weekly audit',
      updated_at: env.clock.now(),
    });
  });

  it('treats renaming a card to its own name as no change, and a change of case as a rename', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, { name: 'Same' });
    const before = await stateOf(env, team.org.id);
    env.clock.advance(1_000);
    const same = await call(
      env,
      'editCard',
      { oldName: 'Same', newName: 'Same' },
      { cookie: team.admin.cookie },
    );
    expect(same).toMatchObject({ status: 200, body: { card: { id: card.id, name: 'Same' } } });
    expect(await stateOf(env, team.org.id)).toEqual(before);

    const recased = await call(
      env,
      'editCard',
      { oldName: 'Same', newName: 'SAME' },
      { cookie: team.admin.cookie },
    );
    expect(recased).toMatchObject({ status: 200, body: { card: { name: 'SAME' } } });
    expect(await cardRow(env, card.id)).toMatchObject({ name: 'SAME', name_key: 'same' });
  });

  it('refuses a new name that is taken or breaks the name rule, on newName, writing nothing', async () => {
    const team = await buildTeam(env);
    await buildCard(env, team.org, { name: 'Original' });
    await buildCard(env, team.org, { name: 'Taken' });
    const before = await stateOf(env, team.org.id);
    const cases = [
      ['tAKEN', 409, rules.nameExists],
      ['', 400, rules.itemNameLength],
      [NAME_101, 400, rules.itemNameLength],
      ['a=b', 400, 'Name contains invalid characters: ='],
    ] as const;
    for (const [newName, status, errMsg] of cases) {
      const answer = await call(
        env,
        'editCard',
        { oldName: 'Original', newName },
        { cookie: team.admin.cookie },
      );
      expect(answer, newName).toMatchObject({ status, body: { errMsg, errField: 'newName' } });
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
    const longest = await call(
      env,
      'editCard',
      { oldName: 'Original', newName: 'o'.repeat(100) },
      { cookie: team.admin.cookie },
    );
    expect(longest.status).toBe(200);
  });

  it('answers an old name of another organisation, of a deleted card or of nothing as not found', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    await buildCard(env, other.org, { name: 'Theirs' });
    const gone = await buildCard(env, team.org, { name: 'Gone' });
    await call(env, 'deleteCard', { id: gone.id }, { cookie: team.admin.cookie });
    const mine = await stateOf(env, team.org.id);
    const theirs = await stateOf(env, other.org.id);
    for (const oldName of ['Theirs', 'Gone', 'Nothing']) {
      const answer = await call(
        env,
        'editCard',
        { oldName, newName: 'Mine now' },
        { cookie: team.admin.cookie },
      );
      expect(answer, oldName).toMatchObject({ status: 404, body: { errMsg: messages.cardNotFound } });
    }
    expect(await stateOf(env, team.org.id)).toEqual(mine);
    expect(await stateOf(env, other.org.id)).toEqual(theirs);
  });

  // ----------------------------------------------------------------------------------------- delete-card

  it('soft-deletes a card: answers its name, takes it off every board, keeps its row and items', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const stays = await buildCard(env, team.org);
    const board = await buildBoard(env, team.org, { cardIds: [card.id, stays.id] });
    env.clock.advance(1_000);
    const answer = await call(env, 'deleteCard', { id: card.id }, { cookie: team.admin.cookie });
    expect(answer).toMatchObject({ status: 200, body: { name: card.name } });
    expect(answer.body).toEqual({ name: card.name });
    expect(await cardRow(env, card.id)).toMatchObject({ deleted_at: env.clock.now() });
    const items = await env.db
      .selectFrom('card_items')
      .select('is_deleted')
      .where('card_id', '=', card.id)
      .execute();
    expect(items).toEqual([{ is_deleted: 0 }, { is_deleted: 0 }, { is_deleted: 0 }]);
    const boards = await call(env, 'getBoards', {}, { cookie: team.viewer.cookie });
    expect(boards.body.boards.find((b: { id: number }) => b.id === board.id).cardIDs).toEqual([stays.id]);
    const cards = await call(env, 'getCards', {}, { cookie: team.admin.cookie });
    expect(cards.body.cards.map((c: { id: number }) => c.id)).toEqual([stays.id]);

    const again = await call(env, 'deleteCard', { id: card.id }, { cookie: team.admin.cookie });
    expect(again).toMatchObject({ status: 404, body: { errMsg: messages.cardNotFound } });
  });

  it('answers another organisation’s card as not found on delete-card, changing nothing', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const theirs = await buildCard(env, other.org);
    await buildBoard(env, other.org, { cardIds: [theirs.id] });
    const before = await stateOf(env, other.org.id);
    const answer = await call(env, 'deleteCard', { id: theirs.id }, { cookie: team.admin.cookie });
    expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.cardNotFound } });
    expect(await stateOf(env, other.org.id)).toEqual(before);
  });

  // ------------------------------------------------------------------------------------ access and input

  it('refuses the card calls without a session (401), and admin calls below Administrator (403)', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const board = await buildBoard(env, team.org, { cardIds: [card.id] });
    const itemId = card.itemIds[0]!;
    const itemBody = { type: 'pass_fail', content: '<p>x</p>', na: false, order: 5 };
    const before = await stateOf(env, team.org.id);
    const adminCalls = [
      ['getCardsUsed', {}],
      ['getCards', {}],
      ['addCard', { name: unique('New ') }],
      ['editCard', { oldName: card.name, newName: 'Renamed' }],
      ['replaceCard', { card: { id: card.id, name: 'Renamed', cardItems: [] } }],
      ['deleteCard', { id: card.id }],
      ['addCardItem', { cardID: card.id, ...itemBody }],
      ['editCardItem', { id: itemId, ...itemBody }],
      ['deleteCardItem', { id: itemId }],
    ] as const;
    const memberCalls = [
      ['getCardsByBoardId', { boardID: board.id }],
      ['getDeletedCards', { startTime: new Date(0).toISOString() }],
      ['getCard', { cardID: card.id }],
    ] as const;
    for (const [name, body] of [...adminCalls, ...memberCalls]) {
      expect(await call(env, name, body), `${name} without a session`).toMatchObject({
        status: 401,
        body: { errMsg: 'Please sign in to continue.' },
      });
    }
    for (const [name, body] of adminCalls) {
      for (const member of [team.viewer, team.evaluator]) {
        const answer = await call(env, name, body, { cookie: member.cookie });
        expect(answer, `${name} as ${member.role}`).toMatchObject({
          status: 403,
          body: { errMsg: 'Not authorized.' },
        });
      }
    }
    for (const [name, body] of memberCalls) {
      expect((await call(env, name, body, { cookie: team.viewer.cookie })).status, `${name} as viewer`).toBe(
        200,
      );
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  it('refuses malformed card requests with 400 and the exact message, writing nothing', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const before = await stateOf(env, team.org.id);
    const cases: [Parameters<typeof call>[1], Record<string, unknown>, string, string | undefined][] = [
      ['addCard', {}, 'name is required.', 'name'],
      ['addCard', { name: 5 }, 'name must be a string.', 'name'],
      ['addCard', { name: 'Ok', hasBoard: true }, 'Unknown field: hasBoard.', undefined],
      ['editCard', { oldName: '', newName: 'x' }, 'oldName must not be empty.', 'oldName'],
      ['editCard', { oldName: card.name }, 'newName is required.', 'newName'],
      ['deleteCard', { id: String(card.id) }, 'id must be a number.', 'id'],
      ['getCard', { cardID: 1.5 }, 'cardID must be an int.', 'cardID'],
      ['getCardsByBoardId', {}, 'boardID is required.', 'boardID'],
      ['getDeletedCards', { startTime: 'yesterday' }, 'startTime is not a valid date and time.', 'startTime'],
      ['getCardsUsed', { orgName: 7 }, 'orgName must be a string.', 'orgName'],
      ['getCards', { all: true }, 'Unknown field: all.', undefined],
    ];
    for (const [name, body, errMsg, errField] of cases) {
      const answer = await call(env, name, body, { cookie: team.admin.cookie });
      expect(answer, `${name} ${JSON.stringify(body)}`).toMatchObject({ status: 400, body: { errMsg } });
      expect(answer.body.errField, `${name} errField`).toBe(errField);
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });
});
