import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DialectName, UntypedDb } from './dialect.ts';
import { initial } from './migrations/0001_initial.ts';
import { anonymousKeys } from './migrations/0004_anonymous_keys.ts';
import { analytics } from './migrations/0005_analytics.ts';
import { evaluationsSearch } from './migrations/0003_evaluations.ts';
import { evaluationTotals } from './migrations/0010_evaluation_totals.ts';
import { scaleOut } from './migrations/0011_scale_out.ts';
import { exportLeases } from './migrations/0012_export_leases.ts';
import { evidence } from './migrations/0013_evidence.ts';
import { actions } from './migrations/0015_actions.ts';
import { apiTokens } from './migrations/0016_api_tokens.ts';
import { webhooks } from './migrations/0017_webhooks.ts';
import { actionPhotos } from './migrations/0018_action_photos.ts';
import { reports } from './migrations/0021_reports.ts';
import { orgTimeZone } from './migrations/0019_org_time_zone.ts';
import { schedules } from './migrations/0020_schedules.ts';
import { sso } from './migrations/0022_sso.ts';
import { deviceCompletion } from './migrations/0023_device_completion.ts';
import { graphReports } from './migrations/0024_graph_reports.ts';
import { scheduleNoticeRecipients } from './migrations/0025_schedule_notice_recipients.ts';
import { itemTotals } from './migrations/0027_item_totals.ts';
import { counterShards } from './migrations/0028_counter_shards.ts';
import { itemTotalsPending } from './migrations/0029_item_totals_pending.ts';
import { boardWindowIndex } from './migrations/0030_board_window_index.ts';
import { boardRevisions } from './migrations/0031_board_revisions.ts';
import { boardDayRevisions } from './migrations/0032_board_day_revisions.ts';

/** Migrations are code, imported statically so they ship in the build; names sort in order. */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001_initial': initial(dialect),
    '0003_evaluations': evaluationsSearch(dialect),
    '0004_anonymous_keys': anonymousKeys(dialect),
    '0005_analytics': analytics(dialect),
    '0010_evaluation_totals': evaluationTotals(dialect),
    '0011_scale_out': scaleOut(dialect),
    '0012_export_leases': exportLeases(dialect),
    '0013_evidence': evidence(dialect),
    '0015_actions': actions(dialect),
    '0016_api_tokens': apiTokens(dialect),
    '0017_webhooks': webhooks(dialect),
    '0018_action_photos': actionPhotos(dialect),
    '0021_reports': reports(dialect),
    '0019_org_time_zone': orgTimeZone(dialect),
    '0020_schedules': schedules(dialect),
    '0022_sso': sso(dialect),
    '0023_device_completion': deviceCompletion(dialect),
    '0024_graph_reports': graphReports(dialect),
    '0025_schedule_notice_recipients': scheduleNoticeRecipients(dialect),
    '0027_item_totals': itemTotals(dialect),
    '0028_counter_shards': counterShards(dialect),
    '0029_item_totals_pending': itemTotalsPending(dialect),
    '0030_board_window_index': boardWindowIndex(dialect),
    '0031_board_revisions': boardRevisions(dialect),
    '0032_board_day_revisions': boardDayRevisions(dialect),
  };
}

/** Runs every migration not yet run; `upTo` (tests of one migration) stops at that one. */
export async function migrateToLatest(
  db: UntypedDb,
  dialect: DialectName,
  upTo?: (name: string) => boolean,
): Promise<void> {
  const all = migrations(dialect);
  const chosen = upTo ? Object.fromEntries(Object.entries(all).filter(([name]) => upTo(name))) : all;
  const provider: MigrationProvider = { getMigrations: async () => chosen };
  // Work on parallel branches adds migrations independently of each other, so one that sorts before a
  // migration already run is run too (numbers are reserved per branch; none depends on a later one).
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(
      failed ? `migration ${failed.migrationName} failed: ${reason}` : `migrations could not run: ${reason}`,
    );
  }
}
