// Which players have something to show, by uuid and by lowercase name, kept in memory and in step with every change
// notice: the mod API answers every other player 404 without a database query (most players the mod asks about have
// nothing to show).
import { isUsername, normalizeUuid } from '../../src/lib/ids.ts';
import { showsSomething, type PlayerAnswers } from './player-answers.ts';

/** The players who have something to show. */
export class ShowingPlayers {
  private readonly uuids = new Set<string>();
  /**
   * Lowercase name → uuid. A renamed player's old name may stay until the name is taken again: it only costs a lookup.
   */
  private readonly names = new Map<string, string>();
  private ready = false;

  /**
   * Whether a URL id (a uuid in any form, or a name in any case) names a player known to have nothing to show, without
   * asking the database: false for any other text (the routes decide on it) and for everyone until the set is loaded.
   */
  showsNothing(id: string): boolean {
    if (!this.ready || this.uuids.has(id)) return false;
    const uuid = normalizeUuid(id);
    if (uuid !== null) return !this.uuids.has(uuid);
    return isUsername(id) && !this.names.has(id.toLowerCase());
  }

  /** Records a player's answers now (null: the account is gone). */
  update(uuid: string, answers: PlayerAnswers | null): void {
    if (answers && showsSomething(answers)) {
      this.uuids.add(uuid);
      this.names.set(answers.username.toLowerCase(), uuid);
      return;
    }
    this.uuids.delete(uuid);
    const name = answers?.username.toLowerCase();
    if (name !== undefined && this.names.get(name) === uuid) this.names.delete(name);
  }

  /** Marks the set complete (every showing player was added): from now on, a player not in it is answered 404. */
  markLoaded(): void {
    this.ready = true;
  }

  /** How many players have something to show. */
  get size(): number {
    return this.uuids.size;
  }
}
