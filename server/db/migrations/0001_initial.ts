import { sql } from 'kysely';
import { ref, withId, type DialectName, type UntypedDb } from '../dialect.ts';

/** Every table of SPEC §3 and docs/product-decisions.md. Tenant tables carry org_id, indexed with what they're queried by. */
export function initial(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      const table = (name: string) => withId(db.schema.createTable(name), dialect);
      const time = 'bigint';
      const bool = 'integer';

      await table('organizations')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull().unique())
        .addColumn('subscription_status', 'text', (c) => c.notNull())
        .addColumn('num_departments', 'integer', (c) => c.notNull())
        .addColumn('billing_customer_id', 'text')
        .addColumn('billing_subscription_id', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();

      await table('users')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_key', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('email_verified', bool, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addColumn('deleted_at', time)
        .execute();
      // An email belongs to one live account across the installation (docs/product-decisions.md).
      await db.schema
        .createIndex('users_email_key')
        .on('users')
        .column('email_key')
        .unique()
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
      await db.schema.createIndex('users_org').on('users').columns(['org_id', 'deleted_at']).execute();

      await table('sessions')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('user_id', 'bigint', (c) => ref('users', 'cascade')(c).notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_seen_at', time, (c) => c.notNull())
        .addColumn('idle_expires_at', time, (c) => c.notNull())
        .addColumn('absolute_expires_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').columns(['org_id', 'user_id']).execute();
      await db.schema.createIndex('sessions_expiry').on('sessions').column('absolute_expires_at').execute();

      await table('one_time_tokens')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('user_id', 'bigint', (c) => ref('users', 'cascade')(c).notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .execute();
      await db.schema
        .createIndex('one_time_tokens_user')
        .on('one_time_tokens')
        .columns(['org_id', 'user_id', 'purpose'])
        .execute();

      await table('rate_limit_events')
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('rate_limit_events_bucket')
        .on('rate_limit_events')
        .columns(['bucket', 'created_at'])
        .execute();

      await table('checkouts')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('checkout_id', 'text', (c) => c.notNull().unique())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('num_departments', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('completed_at', time)
        .execute();
      await db.schema.createIndex('checkouts_org').on('checkouts').column('org_id').execute();

      await table('boards')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('has_anonymous', bool, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addColumn('deleted_at', time)
        .execute();
      // Names are unique among live boards only: a deleted board's name can be used again.
      await db.schema
        .createIndex('boards_org_name')
        .on('boards')
        .columns(['org_id', 'name_key'])
        .unique()
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
      await db.schema.createIndex('boards_org').on('boards').columns(['org_id', 'deleted_at']).execute();

      await table('cards')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addColumn('deleted_at', time)
        .execute();
      await db.schema
        .createIndex('cards_org_name')
        .on('cards')
        .columns(['org_id', 'name_key'])
        .unique()
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
      await db.schema.createIndex('cards_org').on('cards').columns(['org_id', 'deleted_at']).execute();

      await db.schema
        .createTable('board_cards')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('board_id', 'bigint', (c) => ref('boards', 'cascade')(c).notNull())
        .addColumn('card_id', 'bigint', (c) => ref('cards', 'cascade')(c).notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('board_cards_pk', ['board_id', 'card_id'])
        .execute();
      await db.schema
        .createIndex('board_cards_card')
        .on('board_cards')
        .columns(['org_id', 'card_id'])
        .execute();

      await table('card_items')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('card_id', 'bigint', (c) => ref('cards', 'cascade')(c).notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('na', bool, (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('is_deleted', bool, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('card_items_card')
        .on('card_items')
        .columns(['org_id', 'card_id', 'position'])
        .execute();

      await table('anonymous_keys')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('board_id', 'bigint', (c) => ref('boards', 'cascade')(c).notNull())
        .addColumn('period', 'bigint', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('revoked_at', time)
        .execute();
      await db.schema
        .createIndex('anonymous_keys_board_period')
        .on('anonymous_keys')
        .columns(['org_id', 'board_id', 'period'])
        .execute();

      await table('evaluations')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('board_id', 'bigint', (c) => ref('boards')(c).notNull())
        .addColumn('card_id', 'bigint', (c) => ref('cards')(c).notNull())
        .addColumn('user_id', 'bigint', (c) => ref('users', 'set null')(c))
        .addColumn('anon_key_id', 'bigint', (c) => ref('anonymous_keys', 'set null')(c))
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('board_name', 'text', (c) => c.notNull())
        .addColumn('card_name', 'text', (c) => c.notNull())
        .addColumn('pass', bool)
        .addColumn('has_feedback', bool, (c) => c.notNull())
        .addColumn('started_at', time, (c) => c.notNull())
        .addColumn('completed_at', time)
        .execute();
      // The board view: one board's evaluations over a window.
      await db.schema
        .createIndex('evaluations_board_completed')
        .on('evaluations')
        .columns(['org_id', 'board_id', 'completed_at'])
        .execute();
      // Keyset search over the organisation: completed time, then id.
      await db.schema
        .createIndex('evaluations_completed_id')
        .on('evaluations')
        .columns(['org_id', 'completed_at', 'id'])
        .execute();
      // A member's own evaluations, for search without edit mode.
      await db.schema
        .createIndex('evaluations_user_completed_id')
        .on('evaluations')
        .columns(['org_id', 'user_id', 'completed_at', 'id'])
        .execute();
      // Purge of evaluations never completed.
      await db.schema
        .createIndex('evaluations_unfinished')
        .on('evaluations')
        .column('started_at')
        .where(sql.ref('completed_at'), 'is', null)
        .execute();

      await table('results')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('evaluation_id', 'bigint', (c) => ref('evaluations', 'cascade')(c).notNull())
        .addColumn('item_id', 'bigint', (c) => c.notNull())
        .addColumn('item_type', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('pass', bool)
        .addColumn('text_result', 'text')
        .addColumn('numeric_result', 'double precision')
        .addColumn('na', bool, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('results_evaluation')
        .on('results')
        .columns(['evaluation_id', 'position'])
        .execute();

      await table('feedback')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('evaluation_id', 'bigint', (c) => ref('evaluations', 'cascade')(c))
        .addColumn('board_id', 'bigint', (c) => ref('boards')(c).notNull())
        .addColumn('card_id', 'bigint', (c) => ref('cards')(c))
        .addColumn('user_id', 'bigint', (c) => ref('users', 'set null')(c))
        .addColumn('anon_key_id', 'bigint', (c) => ref('anonymous_keys', 'set null')(c))
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('board_name', 'text', (c) => c.notNull())
        .addColumn('card_name', 'text')
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('feedback_created_id')
        .on('feedback')
        .columns(['org_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('feedback_user_created_id')
        .on('feedback')
        .columns(['org_id', 'user_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('feedback_evaluation').on('feedback').column('evaluation_id').execute();

      await table('dashboards')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('is_default', bool, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dashboards_org').on('dashboards').column('org_id').execute();

      await table('dashboard_settings')
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('dashboard_id', 'bigint', (c) => ref('dashboards', 'cascade')(c).notNull())
        .addColumn('board_id', 'bigint', (c) => c.notNull())
        .addColumn('card_id', 'bigint', (c) => c.notNull())
        .addColumn('card_item_id', 'bigint', (c) => c.notNull())
        .addColumn('start_number', 'integer', (c) => c.notNull())
        .addColumn('start_duration', 'text', (c) => c.notNull())
        .addColumn('end_number', 'integer', (c) => c.notNull())
        .addColumn('end_duration', 'text', (c) => c.notNull())
        .addColumn('time_division', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('graph_order', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('dashboard_settings_dashboard')
        .on('dashboard_settings')
        .columns(['org_id', 'dashboard_id'])
        .execute();

      await table('idempotency_records')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('idem_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addUniqueConstraint('idempotency_records_scope_key', ['scope', 'idem_key'])
        .execute();
      await db.schema
        .createIndex('idempotency_records_created')
        .on('idempotency_records')
        .column('created_at')
        .execute();

      await db.schema
        .createTable('app_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
