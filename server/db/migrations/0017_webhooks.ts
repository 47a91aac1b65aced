import type { DialectName, UntypedDb } from '../dialect.ts';
import { ref, withId } from '../dialect.ts';

/**
 * Webhooks (docs/decisions/0585): endpoints, and the deliveries queued in the same transaction as what
 * they tell (an outbox), claimed by any process with a lease, retried with backoff for 24 hours.
 */
export function webhooks(dialect: DialectName) {
  return {
    async up(db: UntypedDb) {
      await withId(db.schema.createTable('webhook_endpoints'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('webhook_endpoints_org')
        .on('webhook_endpoints')
        .columns(['org_id', 'id'])
        .execute();
      await withId(db.schema.createTable('webhook_deliveries'), dialect)
        .addColumn('org_id', 'bigint', (c) => ref('organizations')(c).notNull())
        .addColumn('endpoint_id', 'bigint', (c) => ref('webhook_endpoints', 'cascade')(c).notNull())
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('give_up_at', 'bigint', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('lease_until', 'bigint')
        .addColumn('last_attempt_at', 'bigint')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_response', 'text')
        .execute();
      // The queue: what is due, oldest first; and each endpoint's log, newest first.
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_endpoint')
        .on('webhook_deliveries')
        .columns(['org_id', 'endpoint_id', 'created_at'])
        .execute();
    },
  };
}
