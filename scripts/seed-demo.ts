/**
 * `npm run seed:demo`: a demonstration organisation in the configured database (DATABASE_URL, default the
 * SQLite file under data/), with one user of each role, cards and boards. Prints how to sign in.
 */
import { loadConfig } from '../server/config.ts';
import { openAndMigrate } from '../server/db/index.ts';
import * as factories from '../server/test/factories.ts';

const name = process.argv[2] ?? 'Harbour Foods';
const database = await openAndMigrate(loadConfig().database);
const env = { db: database.db, clock: { now: () => Date.now() } } as Parameters<typeof factories.buildOrg>[0];
const team = await factories.buildTeam(env, { name });
const startUp = await factories.buildCard(env, team.org, { name: 'Line 1 start-up' });
const forklift = await factories.buildCard(env, team.org, { name: 'Forklift pre-use' });
await factories.buildCard(env, team.org, { name: 'Cold room' });
const hall = await factories.buildBoard(env, team.org, {
  name: 'Packing Hall',
  cardIds: [startUp.id, forklift.id],
  hasAnonymous: true,
});
await factories.buildBoard(env, team.org, { name: 'Dock 3' });

// A month of results: a morning and an afternoon check on each card every day, about one in eight failing.
const DAY = 24 * 60 * 60_000;
const midnight = new Date().setHours(0, 0, 0, 0);
for (let day = 30; day >= 0; day--) {
  for (const card of [startUp, forklift]) {
    for (const hour of [7, 14]) {
      const completedAt = midnight - day * DAY + hour * 60 * 60_000;
      if (completedAt > Date.now()) continue;
      const pass = (day * 7 + hour + card.id) % 8 !== 0;
      await factories.buildEvaluation(env, team.org, {
        board: hall,
        card,
        user: hour === 7 ? team.evaluator : team.admin,
        completedAt,
        startedAt: completedAt - 5 * 60_000,
        pass,
        results: [
          {
            item_id: card.itemIds[1]!,
            item_type: 'pass_fail',
            position: 1,
            content: '<p>Guards in place</p>',
            pass,
          },
          {
            item_id: card.itemIds[2]!,
            item_type: 'pass_fail',
            position: 2,
            content: '<p>Floor is dry</p>',
            na: true,
          },
        ],
      });
    }
  }
}
await database.close();

console.log(
  `Organisation "${name}" is ready. Sign in at /q/${encodeURIComponent(name)}/login with password "${factories.DEFAULT_PASSWORD}" as:`,
);
for (const member of [team.owner, team.admin, team.evaluator, team.viewer])
  console.log(`  ${member.role.padEnd(9)} ${member.email}`);
console.log(
  JSON.stringify({ admin: team.admin.cookie, evaluator: team.evaluator.cookie, viewer: team.viewer.cookie }),
);
