// Migration 0010_premium_payments (the name the migrator records): premium payments and the payment notifications as
// they arrived.
import type { Migration } from 'kysely/migration';
import { type MigrationDb, serialId } from './helpers.ts';

/**
 * Premium payments: each provider transaction that granted a feature (its id is unique, so a replayed notification
 * grants nothing twice), and every payment notification as it arrived, with what became of it.
 */
export const premiumPayments: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('premium_payments')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('txn_id', 'text', (c) => c.notNull())
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('item', 'text', (c) => c.notNull())
      .addColumn('amount', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      // completed, refunded or reversed.
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('premium_payments_pk', ['provider', 'txn_id'])
      .execute();
    await db.schema
      .createIndex('premium_payments_user')
      .on('premium_payments')
      .columns(['user_uuid', 'item'])
      .execute();
    await db.schema
      .createTable('payment_notifications')
      .addColumn('id', ...serialId(db))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('txn_id', 'text')
      // What the notification came to: granted, duplicate, unverified, refused (with why), revoked, ignored.
      .addColumn('outcome', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: MigrationDb) {
    for (const table of ['payment_notifications', 'premium_payments']) await db.schema.dropTable(table).execute();
  },
};
