// The chat-community bot's schemas: member ids, codes and the linked players.
import { z } from 'zod';
import { playerUuidSchema } from './ids';

const discordIdSchema = z.string().regex(/^\d{5,20}$/, { message: 'A member id is 5 to 20 digits.' });
const botCodeSchema = z.string().regex(/^[A-Z2-9]{8}$/, { message: 'A code is 8 letters and digits.' });
/** POST /api/bot/link and /api/bot/role: a code a player gave the member, and the member's id. */
export const botCodeBodySchema = z.object({ code: botCodeSchema, discordId: discordIdSchema });
/** POST /api/bot/boosting: whether a member boosts now. */
export const botBoostingBodySchema = z.object({ discordId: discordIdSchema, boosting: z.boolean() });
/** POST /api/bot/unlink: the member. */
export const botMemberBodySchema = z.object({ discordId: discordIdSchema });
/** What the bot's calls answer: the player the member is linked to. */
export const botPlayerSchema = z
  .object({ success: z.literal(true), uuid: playerUuidSchema, username: z.string() })
  .meta({ id: 'BotPlayer' });
/** GET /api/bot/links's query: the member id to continue after, and how many. */
export const botLinksQuerySchema = z.object({
  after: z
    .string()
    .regex(/^\d{0,20}$/, { message: 'after is a member id.' })
    .default(''),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
/** What GET /api/bot/links answers: linked members in id order, and the id to continue after (null at the end). */
export const botLinksSchema = z
  .object({
    data: z.array(
      z.object({ discordId: z.string(), uuid: playerUuidSchema, username: z.string(), boosting: z.boolean() }),
    ),
    next: z.string().nullable(),
  })
  .meta({ id: 'BotLinks' });
