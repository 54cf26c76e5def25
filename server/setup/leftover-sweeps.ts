// The leftovers of a server killed mid-upload, swept in the background every SWEEP_INTERVAL_MINUTES while the server
// runs.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/database.ts';
import { startSchedule, type Schedule } from '../operations/schedule.ts';
import { describeSweep, sweepLeftovers } from '../operations/sweep.ts';

/**
 * The sweeps of one server: started once it listens, stopped when it closes (a stop before the start keeps them from
 * starting).
 */
export interface LeftoverSweeps {
  start(): void;
  stop(): Promise<void> | undefined;
}

/** The leftover sweeps of `app` on `db`, as configured (none when SWEEP_INTERVAL_MINUTES is 0). */
export function leftoverSweeps(app: FastifyInstance, db: Db, config: Config): LeftoverSweeps {
  let sweeps: Schedule | undefined;
  let stopped = false;
  const sweep = async (signal: AbortSignal) => {
    const removed = describeSweep(
      await sweepLeftovers(db, app.textureLibrary, {
        graceMs: config.sweepGraceMs,
        notificationRetentionMs: config.paymentNotificationRetentionMs,
        signal,
      }),
    );
    if (removed.length > 0) app.log.info({ removed }, `leftover sweep removed ${removed.length} item(s)`);
  };
  return {
    start() {
      if (config.sweepIntervalMs > 0 && !stopped) {
        sweeps = startSchedule(sweep, config.sweepIntervalMs, (error) =>
          app.log.error({ err: error }, 'leftover sweep failed'),
        );
      }
    },
    stop() {
      stopped = true;
      return sweeps?.stop();
    },
  };
}
