import { expect, it } from 'vitest';
import { CARD_ITEM_TYPES, type CardItemType } from '../../../common/api/entities.ts';
import { MAX_ITEMS_PER_CARD } from '../../../common/constants.ts';
import { messages as rules } from '../../../common/validation.ts';
import { buildBoard, buildCard, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { tenantState } from '../../test/state.ts';
import { messages } from './cards.ts';

const stateOf = tenantState('cards', 'items', 'boardCards');

async function itemRow(env: TestEnv, id: number) {
  return env.db.selectFrom('card_items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function liveItemCount(env: TestEnv, cardId: number) {
  const rows = await env.db
    .selectFrom('card_items')
    .select('id')
    .where('card_id', '=', cardId)
    .where('is_deleted', '=', 0)
    .execute();
  return rows.length;
}

const manyItems = (count: number) =>
  Array.from({ length: count }, () => ({ type: 'pass_fail' as CardItemType, content: '<p>Check</p>' }));

const XSS =
  '<p>Guard<script>alert(1)</script></p><img src=x onerror="alert(2)"><a href="javascript:alert(3)">go</a>';
const XSS_CLEAN = '<p>Guard</p><a rel="noopener noreferrer" target="_blank">go</a>';

describeEachDatabase('card items', (env) => {
  // ---------------------------------------------------------------------------------------- add-card-item

  it('adds an item of each type, answering it with its order, N/A flag and sanitised content', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, { items: [] });
    env.clock.advance(1_000);
    for (const [order, type] of CARD_ITEM_TYPES.entries()) {
      const answer = await call(
        env,
        'addCardItem',
        {
          cardID: card.id,
          type,
          content: `<p><strong>${type}</strong></p>`,
          na: type === 'pass_fail',
          order,
        },
        { cookie: team.admin.cookie },
      );
      expect(answer.status, type).toBe(200);
      expect(answer.body).toEqual({
        cardItem: {
          id: expect.any(Number),
          cardID: card.id,
          type,
          content: `<p><strong>${type}</strong></p>`,
          na: type === 'pass_fail',
          order,
          isDeleted: false,
          photoOnFail: false,
          noteOnFail: false,
        },
      });
      expect(await itemRow(env, answer.body.cardItem.id)).toMatchObject({
        org_id: team.org.id,
        card_id: card.id,
        position: order,
        is_deleted: 0,
        created_at: env.clock.now(),
      });
    }
    const read = await call(env, 'getCard', { cardID: card.id }, { cookie: team.viewer.cookie });
    expect(read.body.card.cardItems.map((i: { type: string }) => i.type)).toEqual([...CARD_ITEM_TYPES]);
  });

  it('stores content sanitised: no <script>, no onerror attribute, no javascript: link', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, { items: [] });
    const added = await call(
      env,
      'addCardItem',
      { cardID: card.id, type: 'instruction', content: XSS, na: false, order: 0 },
      { cookie: team.admin.cookie },
    );
    expect(added.body.cardItem.content).toBe(XSS_CLEAN);
    expect((await itemRow(env, added.body.cardItem.id)).content).toBe(XSS_CLEAN);

    const plain = await call(
      env,
      'addCardItem',
      { cardID: card.id, type: 'instruction', content: '<p>ok</p>', na: false, order: 1 },
      { cookie: team.admin.cookie },
    );
    const edited = await call(
      env,
      'editCardItem',
      { id: plain.body.cardItem.id, type: 'instruction', content: XSS, na: false, order: 1 },
      { cookie: team.admin.cookie },
    );
    expect(edited.body.cardItem.content).toBe(XSS_CLEAN);
    expect((await itemRow(env, plain.body.cardItem.id)).content).toBe(XSS_CLEAN);

    const replaced = await call(
      env,
      'replaceCard',
      {
        card: {
          id: card.id,
          name: card.name,
          cardItems: [
            { id: added.body.cardItem.id, type: 'pass_fail', content: XSS, na: true, order: 0 },
            { type: 'pass_fail', content: XSS, na: false, order: 2 },
          ],
        },
      },
      { cookie: team.admin.cookie },
    );
    expect(replaced.status).toBe(200);
    const contents = (
      await env.db.selectFrom('card_items').select('content').where('card_id', '=', card.id).execute()
    ).map((r) => r.content);
    expect(contents).toEqual([XSS_CLEAN, XSS_CLEAN, XSS_CLEAN]);
  });

  it('holds at most 100 live items: the 100th is added, the 101st refused; deleted items do not count', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, { items: manyItems(MAX_ITEMS_PER_CARD - 1) });
    const add = (order: number) =>
      call(
        env,
        'addCardItem',
        { cardID: card.id, type: 'pass_fail', content: '<p>More</p>', na: false, order },
        { cookie: team.admin.cookie },
      );
    const hundredth = await add(99);
    expect(hundredth.status).toBe(200);
    const before = await stateOf(env, team.org.id);
    const over = await add(100);
    expect(over).toMatchObject({ status: 409, body: { errMsg: 'A card can only have 100 items.' } });
    expect(await stateOf(env, team.org.id)).toEqual(before);

    await call(env, 'deleteCardItem', { id: card.itemIds[0]! }, { cookie: team.admin.cookie });
    expect((await add(100)).status).toBe(200);
    expect(await liveItemCount(env, card.id)).toBe(MAX_ITEMS_PER_CARD);
  });

  it('adds exactly the room left when admins add items to one card at once', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, { items: manyItems(MAX_ITEMS_PER_CARD - 2) });
    const cookies = [team.admin.cookie, team.owner.cookie];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(
          env,
          'addCardItem',
          { cardID: card.id, type: 'pass_fail', content: `<p>Rush ${i}</p>`, na: false, order: 100 + i },
          { cookie: cookies[i % 2] },
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 409 && a.body.errMsg === messages.itemLimit)).toHaveLength(10);
    expect(await liveItemCount(env, card.id)).toBe(MAX_ITEMS_PER_CARD);
  });

  it('answers a card of another organisation or a deleted card as not found on add-card-item', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const theirs = await buildCard(env, other.org);
    const gone = await buildCard(env, team.org);
    await call(env, 'deleteCard', { id: gone.id }, { cookie: team.admin.cookie });
    const mine = await stateOf(env, team.org.id);
    const theirsBefore = await stateOf(env, other.org.id);
    for (const cardID of [theirs.id, gone.id]) {
      const answer = await call(
        env,
        'addCardItem',
        { cardID, type: 'pass_fail', content: '<p>x</p>', na: false, order: 0 },
        { cookie: team.admin.cookie },
      );
      expect(answer).toMatchObject({ status: 404, body: { errMsg: messages.cardNotFound } });
    }
    expect(await stateOf(env, team.org.id)).toEqual(mine);
    expect(await stateOf(env, other.org.id)).toEqual(theirsBefore);
  });

  // --------------------------------------------------------------------------------------- edit-card-item

  it('edits an item’s type, content, N/A flag and order', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const id = card.itemIds[1]!;
    env.clock.advance(1_000);
    const answer = await call(
      env,
      'editCardItem',
      { id, cardID: card.id, type: 'text', content: '<p>What did you see?</p>', na: true, order: 7 },
      { cookie: team.admin.cookie },
    );
    expect(answer).toEqual(
      expect.objectContaining({
        status: 200,
        body: {
          cardItem: {
            id,
            cardID: card.id,
            type: 'text',
            content: '<p>What did you see?</p>',
            na: true,
            order: 7,
            isDeleted: false,
            photoOnFail: false,
            noteOnFail: false,
          },
        },
      }),
    );
    expect(await itemRow(env, id)).toMatchObject({
      type: 'text',
      na: 1,
      position: 7,
      is_deleted: 0,
      updated_at: env.clock.now(),
    });
  });

  it('soft-deletes an item through edit-card-item isDeleted, keeping its order', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const id = card.itemIds[2]!;
    const answer = await call(
      env,
      'editCardItem',
      { id, type: 'pass_fail', content: '<p>Floor is dry</p>', na: true, order: 2, isDeleted: true },
      { cookie: team.admin.cookie },
    );
    expect(answer).toMatchObject({ status: 200, body: { cardItem: { id, isDeleted: true, order: 2 } } });
    expect(await itemRow(env, id)).toMatchObject({ is_deleted: 1, position: 2 });
    const read = await call(env, 'getCard', { cardID: card.id }, { cookie: team.viewer.cookie });
    expect(read.body.card.cardItems.map((i: { id: number }) => i.id)).toEqual(card.itemIds.slice(0, 2));
  });

  it('answers another organisation’s item, a deleted item, an item of a deleted card or of another card as not found', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const theirs = await buildCard(env, other.org);
    const card = await buildCard(env, team.org);
    const sibling = await buildCard(env, team.org);
    const goneCard = await buildCard(env, team.org);
    await call(env, 'deleteCard', { id: goneCard.id }, { cookie: team.admin.cookie });
    await call(env, 'deleteCardItem', { id: card.itemIds[0]! }, { cookie: team.admin.cookie });
    const mine = await stateOf(env, team.org.id);
    const theirsBefore = await stateOf(env, other.org.id);

    const body = { type: 'pass_fail', content: '<p>Taken over</p>', na: false, order: 0 } as const;
    const attempts = [
      { id: theirs.itemIds[0]! },
      { id: card.itemIds[0]! },
      { id: goneCard.itemIds[0]! },
      { id: card.itemIds[1]!, cardID: sibling.id },
      { id: 123_456_789 },
    ];
    for (const target of attempts) {
      const edit = await call(env, 'editCardItem', { ...target, ...body }, { cookie: team.admin.cookie });
      expect(edit, JSON.stringify(target)).toMatchObject({
        status: 404,
        body: { errMsg: messages.itemNotFound },
      });
      if (!('cardID' in target)) {
        const remove = await call(env, 'deleteCardItem', { id: target.id }, { cookie: team.admin.cookie });
        expect(remove, JSON.stringify(target)).toMatchObject({
          status: 404,
          body: { errMsg: messages.itemNotFound },
        });
      }
    }
    expect(await stateOf(env, team.org.id)).toEqual(mine);
    expect(await stateOf(env, other.org.id)).toEqual(theirsBefore);
  });

  // ------------------------------------------------------------------------------------- delete-card-item

  it('soft-deletes an item, keeping its order, and answers its id', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const id = card.itemIds[1]!;
    env.clock.advance(1_000);
    const answer = await call(env, 'deleteCardItem', { id }, { cookie: team.admin.cookie });
    expect(answer).toMatchObject({ status: 200, body: { id } });
    expect(answer.body).toEqual({ id });
    expect(await itemRow(env, id)).toMatchObject({ is_deleted: 1, position: 1, updated_at: env.clock.now() });
    const read = await call(env, 'getCard', { cardID: card.id }, { cookie: team.viewer.cookie });
    expect(read.body.card.cardItems.map((i: { order: number }) => i.order)).toEqual([0, 2]);
  });

  it('refuses malformed item requests with 400 and the exact message, writing nothing', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const before = await stateOf(env, team.org.id);
    const base = { cardID: card.id, type: 'pass_fail', content: '<p>x</p>', na: false, order: 0 };
    const cases: [Parameters<typeof call>[1], Record<string, unknown>, string, string | undefined][] = [
      [
        'addCardItem',
        { ...base, type: 'photo' },
        'type must be one of: instruction, pass_fail, text, numeric, none.',
        'type',
      ],
      [
        'addCardItem',
        { ...base, content: 'x'.repeat(20_001) },
        'content must be at most 20000 characters long.',
        'content',
      ],
      ['addCardItem', { ...base, order: -1 }, 'order must be at least 0.', 'order'],
      ['addCardItem', { ...base, na: 'yes' }, 'na must be a boolean.', 'na'],
      ['addCardItem', { ...base, isDeleted: false }, 'Unknown field: isDeleted.', undefined],
      [
        'editCardItem',
        { ...base, id: card.itemIds[0], order: 10_001 },
        'order must be at most 10000.',
        'order',
      ],
      ['editCardItem', { ...base }, 'id is required.', 'id'],
      ['deleteCardItem', { id: 'one' }, 'id must be a number.', 'id'],
    ];
    for (const [name, body, errMsg, errField] of cases) {
      const answer = await call(env, name, body, { cookie: team.admin.cookie });
      expect(answer, `${name} ${JSON.stringify(body).slice(0, 80)}`).toMatchObject({
        status: 400,
        body: { errMsg },
      });
      expect(answer.body.errField).toBe(errField);
    }
    expect(await stateOf(env, team.org.id)).toEqual(before);
  });

  // ------------------------------------------------------------------------------------------ replace-card

  it('saves a whole card at once: its name, edited, added and deleted items', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, { name: 'Draft' });
    await buildBoard(env, team.org, { cardIds: [card.id] });
    const [first, second, third] = card.itemIds as [number, number, number];
    env.clock.advance(1_000);
    const answer = await call(
      env,
      'replaceCard',
      {
        card: {
          id: card.id,
          name: 'Final',
          cardItems: [
            { id: second, type: 'pass_fail', content: '<p>Guards first</p>', na: true, order: 0 },
            { id: first, type: 'instruction', content: '<p>Then read</p>', na: false, order: 1 },
            {
              id: third,
              type: 'pass_fail',
              content: '<p>Floor is dry</p>',
              na: true,
              order: 2,
              isDeleted: true,
            },
            { type: 'numeric', content: '<p>Temperature</p>', na: false, order: 3 },
            { type: 'text', content: '<p>Dropped before saving</p>', na: false, order: 4, isDeleted: true },
          ],
        },
      },
      { cookie: team.admin.cookie },
    );
    expect(answer.status).toBe(200);
    const added = answer.body.card.cardItems[2];
    expect(answer.body).toEqual({
      card: {
        id: card.id,
        name: 'Final',
        hasBoard: true,
        signOffRequired: false,
        cardItems: [
          {
            id: second,
            cardID: card.id,
            type: 'pass_fail',
            content: '<p>Guards first</p>',
            na: true,
            order: 0,
            isDeleted: false,
            photoOnFail: false,
            noteOnFail: false,
          },
          {
            id: first,
            cardID: card.id,
            type: 'instruction',
            content: '<p>Then read</p>',
            na: false,
            order: 1,
            isDeleted: false,
            photoOnFail: false,
            noteOnFail: false,
          },
          {
            id: expect.any(Number),
            cardID: card.id,
            type: 'numeric',
            content: '<p>Temperature</p>',
            na: false,
            order: 3,
            isDeleted: false,
            photoOnFail: false,
            noteOnFail: false,
          },
        ],
      },
    });
    expect(await itemRow(env, third)).toMatchObject({ is_deleted: 1, position: 2 });
    expect(await itemRow(env, added.id)).toMatchObject({ created_at: env.clock.now(), is_deleted: 0 });
    expect(
      await env.db.selectFrom('card_items').select('id').where('card_id', '=', card.id).execute(),
    ).toHaveLength(4);
    const row = await env.db
      .selectFrom('cards')
      .selectAll()
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Final', name_key: 'final', updated_at: env.clock.now() });
  });

  it('leaves items the request does not mention as they are, and takes a repeated delete as no change', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org);
    const [first, second, third] = card.itemIds as [number, number, number];
    await call(env, 'deleteCardItem', { id: third }, { cookie: team.admin.cookie });
    const before = await itemRow(env, second);
    const answer = await call(
      env,
      'replaceCard',
      {
        card: {
          id: card.id,
          name: card.name,
          cardItems: [
            { id: first, type: 'pass_fail', content: '<p>Changed</p>', na: false, order: 0 },
            {
              id: third,
              type: 'pass_fail',
              content: '<p>Still gone</p>',
              na: false,
              order: 2,
              isDeleted: true,
            },
          ],
        },
      },
      { cookie: team.admin.cookie },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.card.cardItems.map((i: { id: number }) => i.id)).toEqual([first, second]);
    expect(await itemRow(env, second)).toEqual(before);
    expect(await itemRow(env, third)).toMatchObject({ is_deleted: 1, content: '<p>Floor is dry</p>' });
  });

  it('writes nothing when any part of a replaced card is invalid', async () => {
    const team = await buildTeam(env);
    const other = await buildTeam(env);
    const card = await buildCard(env, team.org, { name: 'Mine' });
    const sibling = await buildCard(env, team.org, { name: 'Sibling' });
    const theirs = await buildCard(env, other.org);
    await call(env, 'deleteCardItem', { id: card.itemIds[2]! }, { cookie: team.admin.cookie });
    const mine = await stateOf(env, team.org.id);
    const theirsBefore = await stateOf(env, other.org.id);

    const edit = { type: 'pass_fail', content: '<p>Edited</p>', na: false, order: 0 } as const;
    const valid = { id: card.itemIds[0]!, ...edit };
    const cases: [Record<string, unknown>, number, string, string | undefined][] = [
      [
        { id: card.id, name: 'Renamed', cardItems: [valid, { id: sibling.itemIds[0]!, ...edit }] },
        404,
        messages.itemNotFound,
        undefined,
      ],
      [
        { id: card.id, name: 'Renamed', cardItems: [valid, { id: theirs.itemIds[0]!, ...edit }] },
        404,
        messages.itemNotFound,
        undefined,
      ],
      [
        { id: card.id, name: 'Renamed', cardItems: [valid, { id: card.itemIds[2]!, ...edit }] },
        404,
        messages.itemNotFound,
        undefined,
      ],
      [
        { id: card.id, name: 'Renamed', cardItems: [valid, { ...valid, order: 3 }] },
        400,
        messages.itemRepeated,
        'cardItems',
      ],
      [{ id: card.id, name: 'SIBLING', cardItems: [valid] }, 409, rules.nameExists, 'name'],
      [
        { id: card.id, name: 'Renamed', cardItems: [valid, { ...edit, type: 'photo' }] },
        400,
        'type must be one of: instruction, pass_fail, text, numeric, none.',
        'type',
      ],
      [{ id: card.id, name: 'x'.repeat(101), cardItems: [valid] }, 400, rules.itemNameLength, 'name'],
      [
        { id: card.id, name: 'Renamed?', cardItems: [valid] },
        400,
        'Name contains invalid characters: ?',
        'name',
      ],
      [{ id: theirs.id, name: 'Renamed', cardItems: [] }, 404, messages.cardNotFound, undefined],
    ];
    for (const [body, status, errMsg, errField] of cases) {
      const answer = await call(env, 'replaceCard', { card: body }, { cookie: team.admin.cookie });
      expect(answer, JSON.stringify(body).slice(0, 120)).toMatchObject({ status, body: { errMsg } });
      expect(answer.body.errField, JSON.stringify(body).slice(0, 120)).toBe(errField);
    }
    expect(await stateOf(env, team.org.id)).toEqual(mine);
    expect(await stateOf(env, other.org.id)).toEqual(theirsBefore);

    const longest = 'L'.repeat(100);
    const ok = await call(
      env,
      'replaceCard',
      { card: { id: card.id, name: longest, cardItems: [valid] } },
      { cookie: team.admin.cookie },
    );
    expect(ok).toMatchObject({ status: 200, body: { card: { name: longest } } });
  });

  it('keeps a replaced card to 100 live items, counting the ones it does not mention', async () => {
    const team = await buildTeam(env);
    const card = await buildCard(env, team.org, { items: manyItems(98) });
    const newItem = (order: number) => ({
      type: 'pass_fail' as const,
      content: '<p>New</p>',
      na: false,
      order,
    });
    const before = await stateOf(env, team.org.id);
    const over = await call(
      env,
      'replaceCard',
      { card: { id: card.id, name: card.name, cardItems: [newItem(98), newItem(99), newItem(100)] } },
      { cookie: team.admin.cookie },
    );
    expect(over).toMatchObject({ status: 409, body: { errMsg: messages.itemLimit } });
    expect(await stateOf(env, team.org.id)).toEqual(before);

    // Deleting one in the same save makes room for it.
    const swap = await call(
      env,
      'replaceCard',
      {
        card: {
          id: card.id,
          name: card.name,
          cardItems: [
            { id: card.itemIds[0]!, ...newItem(0), isDeleted: true },
            newItem(98),
            newItem(99),
            newItem(100),
          ],
        },
      },
      { cookie: team.admin.cookie },
    );
    expect(swap.status).toBe(200);
    expect(swap.body.card.cardItems).toHaveLength(MAX_ITEMS_PER_CARD);
    expect(await liveItemCount(env, card.id)).toBe(MAX_ITEMS_PER_CARD);
  });
});
