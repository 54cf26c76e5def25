// The mod API's profile answer (what players' games read).
import { z } from 'zod';

/** What the mod reads from GET /profile/{uuid} (docs/mod-api.md). */
export const modProfileSchema = z
  .object({
    capeGlint: z.boolean(),
    upsideDown: z.boolean(),
    animatedCape: z.boolean(),
    cape_url: z.string().nullable(),
    animated_cape_url: z.string().nullable(),
    ear_url: z.string().nullable(),
  })
  .meta({ id: 'ModProfile' });
