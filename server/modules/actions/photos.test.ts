import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { evidenceMessages, PHOTOS_PER_RESULT_MAX } from '../../../common/evidence.ts';
import { buildBoard, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase, type TestEnv } from '../../test/harness.ts';
import { messages } from './service.ts';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../evidence/fixtures/${name}`, import.meta.url)));

async function raise(env: TestEnv) {
  const team = await buildTeam(env);
  const board = await buildBoard(env, team.org);
  const raised = await call(
    env,
    'addAction',
    {
      boardID: board.id,
      title: 'Replace the cracked guard',
      assigneeID: team.evaluator.id,
      dueDate: '2026-02-01',
      priority: 'High',
    },
    { cookie: team.admin.cookie },
  );
  expect(raised.status, JSON.stringify(raised.body)).toBe(200);
  return { team, actionID: raised.body.action.id as number };
}

const photoRows = (env: TestEnv, orgId: number) =>
  env.db.selectFrom('action_photos').selectAll().where('org_id', '=', orgId).execute();

describeEachDatabase('photos on an action’s close-out', (env) => {
  it('the assignee adds a photo while it is open; it shows with the action and is served as an image', async () => {
    const { team, actionID } = await raise(env);
    const cookie = team.evaluator.cookie;
    const added = await call(env, 'addActionPhoto', { actionID }, { cookie });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const photoID = added.body.photo.id;
    expect(
      (await call(env, 'completeAction', { actionID, note: 'New guard fitted' }, { cookie })).status,
    ).toBe(200);

    const shown = await call(env, 'getAction', { actionID }, { cookie: team.admin.cookie });
    expect(shown.body.photos).toEqual([
      { id: photoID, width: expect.any(Number), height: expect.any(Number) },
    ]);
    const image = await call(
      env,
      'getActionPhoto',
      { photoID, size: 'thumb' },
      { cookie: team.admin.cookie },
    );
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    const full = await call(env, 'getActionPhoto', { photoID }, { cookie });
    expect(full.headers['content-type']).toBe('image/jpeg');

    // Closed: no more photos, none removed.
    const late = await call(env, 'addActionPhoto', { actionID }, { cookie });
    expect(late).toMatchObject({ status: 409, body: { errMsg: messages.closed } });
    expect((await call(env, 'deleteActionPhoto', { photoID }, { cookie })).status).toBe(409);
    expect(await photoRows(env, team.org.id)).toHaveLength(1);
  });

  it('refuses what is not a photo, a sixth photo, and those who may not close it; nothing stored', async () => {
    const { team, actionID } = await raise(env);
    const cookie = team.evaluator.cookie;
    const text = await call(
      env,
      'addActionPhoto',
      { actionID },
      { cookie, upload: { body: fixture('not-a-photo.jpg'), contentType: 'image/jpeg' } },
    );
    expect(text.status).toBe(415);
    expect(await photoRows(env, team.org.id)).toEqual([]);

    for (let i = 0; i < PHOTOS_PER_RESULT_MAX; i++)
      expect((await call(env, 'addActionPhoto', { actionID }, { cookie })).status).toBe(200);
    const sixth = await call(env, 'addActionPhoto', { actionID }, { cookie });
    expect(sixth).toMatchObject({ status: 409, body: { errMsg: evidenceMessages.tooMany } });

    // A viewer may not; another organisation's Owner finds nothing.
    expect((await call(env, 'addActionPhoto', { actionID }, { cookie: team.viewer.cookie })).status).toBe(
      403,
    );
    const other = await buildTeam(env);
    const theirs = await call(env, 'addActionPhoto', { actionID }, { cookie: other.owner.cookie });
    expect(theirs.status).toBe(404);
    const [first] = await photoRows(env, team.org.id);
    const peek = await call(env, 'getActionPhoto', { photoID: first!.id }, { cookie: other.owner.cookie });
    expect(peek).toMatchObject({ status: 404, body: { errMsg: evidenceMessages.photoNotFound } });
    expect(await photoRows(env, team.org.id)).toHaveLength(PHOTOS_PER_RESULT_MAX);
    expect(await photoRows(env, other.org.id)).toEqual([]);
  });

  it('a retried upload is stored once, and its uploader removes it while the action is open', async () => {
    const { team, actionID } = await raise(env);
    const cookie = team.evaluator.cookie;
    const first = await call(
      env,
      'addActionPhoto',
      { actionID },
      { cookie, idempotencyKey: 'close-photo-1' },
    );
    const again = await call(
      env,
      'addActionPhoto',
      { actionID },
      { cookie, idempotencyKey: 'close-photo-1' },
    );
    expect(again.body).toEqual(first.body);
    expect(await photoRows(env, team.org.id)).toHaveLength(1);
    const removed = await call(env, 'deleteActionPhoto', { photoID: first.body.photo.id }, { cookie });
    expect(removed).toMatchObject({ status: 200, body: { id: first.body.photo.id } });
    expect(await photoRows(env, team.org.id)).toEqual([]);
  });
});
