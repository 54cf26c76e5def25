// The player skin for 3D previews: the skin service URL template (PUBLIC_SKIN_URL) and the bundled fallback skin.
import { TEMPLATE_FILES } from './texture-layout';

const configured = (import.meta.env as Record<string, string | undefined>).PUBLIC_SKIN_URL;

/** The skin service URL template; `{uuid}` is replaced by the player's uuid. */
export const skinUrl: string =
  configured !== undefined && configured !== '' ? configured : 'https://crafatar.com/skins/{uuid}';

/** The bundled 64 x 64 skin shown when the skin service cannot be reached. */
export const DEFAULT_SKIN_URL: string = TEMPLATE_FILES.defaultSkin;

/** The skin image URL of a player, from the skin service template. */
export function skinUrlFor(uuid: string, template: string = skinUrl): string {
  return template.replaceAll('{uuid}', encodeURIComponent(uuid));
}
