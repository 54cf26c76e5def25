// A looked-up player: the 3D model wearing their cape (or its animation) and ears, and a table of username, uuid, group
// and premium.
import type { PlayerLookup } from '../../lib/schemas/types';
import { savedFromProfile } from '../upload/saved-textures';
import PlayerPreview from '../shared/PlayerPreview';

/** What the Premium row says. */
function premiumLabel(premium: PlayerLookup['premium']): string {
  if (!premium) return 'No';
  return premium.boost_only ? 'Yes (community boost)' : 'Yes';
}

/** The result card; `own` swaps the report link for the Delete Account link. */
export function PlayerCard({ player, own }: { player: PlayerLookup; own: boolean }) {
  const saved = savedFromProfile(player.profile);
  const rows: Array<[string, string]> = [
    ['Username', player.username],
    ['UUID', player.uuid],
    ['Group', `${player.group.emoji ? `${player.group.emoji} ` : ''}${player.group.name}`],
    ['Premium', premiumLabel(player.premium)],
  ];
  return (
    <section
      className="card mt-6 grid gap-6 md:grid-cols-[minmax(0,18rem)_1fr]"
      aria-label={`${player.username}'s profile`}
      data-testid="player-card"
    >
      <div className="min-w-0">
        <PlayerPreview
          uuid={player.uuid}
          cape={saved.cape}
          ears={saved.ears}
          facing={saved.cape ? 'back' : 'front'}
          elytraToggle={Boolean(saved.cape)}
          zoom={0.8}
        />
      </div>
      <div className="min-w-0">
        <h2 className="text-2xl font-extrabold break-words">{player.username}</h2>
        <table className="mt-4 w-full text-left text-sm">
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label} className="border-b border-ink-800 last:border-0">
                <th scope="row" className="w-28 py-2 pr-4 font-semibold text-ink-300">
                  {label}
                </th>
                <td className="py-2 font-mono break-all">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-6 text-sm text-ink-400">
          {saved.cape || saved.ears ? 'Drag the model to turn it.' : `${player.username} has no cape or ears yet.`}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <a className="btn-secondary" href={`/gallery/${player.uuid}`}>
            Gallery uploads
          </a>
          {own ? (
            <a className="btn-danger" href="/account/delete">
              Delete Account
            </a>
          ) : (
            <a className="btn-secondary" href={`/user/${player.uuid}/report`}>
              Report {player.username}
            </a>
          )}
        </div>
      </div>
    </section>
  );
}
