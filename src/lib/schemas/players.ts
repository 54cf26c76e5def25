// The player lookup and player report schemas.
import { z } from 'zod';
import { reportReasonFields } from './common';
import { playerUuidField, playerUuidSchema } from './ids';
import { modProfileSchema } from './mod';

/** GET /api/user/search/{id}: a registered player as others see them. */
export const playerLookupSchema = z
  .object({
    uuid: playerUuidSchema,
    username: z.string(),
    group: z.object({ name: z.string(), emoji: z.string() }),
    premium: z.object({ boost_only: z.boolean() }).nullable(),
    profile: modProfileSchema,
  })
  .meta({ id: 'PlayerLookup' });

/** POST /api/user/report: the reported player, the ticked terms, the reason and the optional note. */
export const userReportBodySchema = z.object({
  uuid: playerUuidField('That user does not exist.'),
  terms: z.union([z.literal(true), z.literal('true'), z.literal(1), z.literal('1')], {
    message: 'You must accept the terms to report a user.',
  }),
  ...reportReasonFields,
});
