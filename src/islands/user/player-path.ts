// Reading the player out of a /user/{name or uuid} or /user/{uuid}/report path.
import { PLAYER_PATH_ID_PATTERN } from '../../lib/ids';

const PLAYER_PATH = new RegExp(`^/user/(${PLAYER_PATH_ID_PATTERN})(?:/report)?/?$`);

/** The player named in a /user/{id} or /user/{id}/report path, or null for /user and /user/report. */
export function playerIdFromPath(pathname: string): string | null {
  const match = PLAYER_PATH.exec(pathname);
  return match && match[1] !== 'report' ? decodeURIComponent(match[1]!) : null;
}
