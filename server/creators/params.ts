// The creators' path parameters as zod schemas, with the creators' messages.
import { z } from 'zod';
import { BOOLEAN_TEXTS, isTrueText } from '../../src/lib/boolean-text.ts';
import { playerMessages } from '../../src/lib/player-messages.ts';
import { usernameField } from '../../src/lib/schemas/ids.ts';
import { creatorMessages, HEX_COLOUR_PATTERN, SLIDER_MAX, SLIDER_MIN } from '../../src/lib/creator-rules.ts';

/** A colour as six hex digits. */
export const hexColourParam = z.string().regex(HEX_COLOUR_PATTERN, { message: creatorMessages.badColour });
/** A slider's value, a whole number from SLIDER_MIN to SLIDER_MAX. */
export const sliderParam = z.coerce.number().int().min(SLIDER_MIN).max(SLIDER_MAX);
/** A player's name. */
export const usernameParam = usernameField(playerMessages.usernamePattern);
/** A boolean written as text ('true', 'false', '1' or '0'). */
export const booleanParam = z.enum(BOOLEAN_TEXTS).transform(isTrueText);
