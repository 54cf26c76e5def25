// Migration 0013_payment_safeguards (the name the migrator records): payment safeguards: features a moderator gave, and
// indexes for old notifications.
import type { Migration } from 'kysely/migration';
import type { MigrationDb } from './helpers.ts';

/**
 * Payment safeguards: the features a moderator gave (which refunds and boosts ending leave), and indexes for the
 * sweep of old payment notifications and for finding a notification's earlier deliveries.
 */
export const paymentSafeguards: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createTable('premium_grants')
      .addColumn('user_uuid', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('item', 'text', (c) => c.notNull())
      .addColumn('granted_by', 'text', (c) => c.notNull())
      .addColumn('granted_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('premium_grants_pk', ['user_uuid', 'item'])
      .execute();
    await db.schema
      .createIndex('payment_notifications_received')
      .on('payment_notifications')
      .column('received_at')
      .execute();
    await db.schema
      .createIndex('payment_notifications_txn')
      .on('payment_notifications')
      .columns(['provider', 'txn_id'])
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropIndex('payment_notifications_txn').execute();
    await db.schema.dropIndex('payment_notifications_received').execute();
    await db.schema.dropTable('premium_grants').execute();
  },
};
