// /gallery/{uuid}: one player's uploads with the same cards and infinite scroll; an unknown player gets a message and a
// link back to /gallery.
import { useCallback, useState } from 'react';
import { useStore } from '@nanostores/react';
import { FetchError } from 'ofetch';
import { $user } from '../../lib/client/session';
import { BackButton } from './BackButton';
import { fetchUserGallery, type GalleryPage } from './gallery-api';
import { GalleryGrid } from './GalleryGrid';
import { PlusIcon } from './icons';
import { useInfiniteGallery } from './useInfiniteGallery';
import { countOf } from '../../lib/plural';
import { PLAYER_UUID_PATTERN } from '../../lib/ids';

const PLAYER_GALLERY_PATH = new RegExp(`^/gallery/(${PLAYER_UUID_PATTERN})/?$`);

/** The uuid in a /gallery/{uuid} path, or null. */
export function uuidFromPath(pathname: string): string | null {
  return PLAYER_GALLERY_PATH.exec(pathname)?.[1] ?? null;
}

/** The player gallery island. */
export default function PlayerGallery() {
  const user = useStore($user);
  const [uuid] = useState(() => uuidFromPath(location.pathname));
  const [username, setUsername] = useState<string | null>(null);
  const [unknown, setUnknown] = useState(uuid === null);

  const fetchPage = useCallback(
    async (page: number, signal: AbortSignal): Promise<GalleryPage> => {
      if (!uuid) throw new Error('No player');
      try {
        const result = await fetchUserGallery(uuid, page, signal);
        setUsername(result.user.username);
        return result.gallery;
      } catch (failure) {
        if (failure instanceof FetchError && failure.response?.status === 404) {
          setUnknown(true);
        }
        throw failure;
      }
    },
    [uuid],
  );
  const list = useInfiniteGallery(uuid ?? 'none', fetchPage);
  const own = !!user && user.uuid === uuid;

  if (unknown) {
    return (
      <div className="mx-auto max-w-xl py-12 text-center" data-testid="player-unknown">
        <h1 className="text-3xl font-extrabold">Player not found</h1>
        <p className="mt-3 text-ink-300" role="alert">
          That user doesn't exist or isn't registered, so they have no textures here.
        </p>
        <a href="/gallery" className="btn-primary mt-8">
          Back to the gallery
        </a>
      </div>
    );
  }

  const empty = (
    <div className="card flex flex-col items-center gap-3 py-12 text-center" data-testid="gallery-empty">
      <p className="text-lg font-bold">
        {own ? "You haven't shared any textures yet" : `${username ?? 'This player'} hasn't shared any textures yet`}
      </p>
      {own ? (
        <a href="/gallery/new" className="btn-primary mt-2">
          Upload a texture
        </a>
      ) : (
        <a href="/gallery" className="btn-secondary mt-2">
          Browse the gallery
        </a>
      )}
    </div>
  );

  return (
    <div>
      <div className="mb-4">
        <BackButton fallback="/gallery" />
      </div>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0 flex-[1_1_18rem]">
          <h1 className="truncate text-3xl font-extrabold tracking-tight sm:text-4xl" data-testid="player-heading">
            {username ? (
              `${username}'s textures`
            ) : (
              <span
                className="inline-block h-9 w-64 max-w-full animate-pulse rounded bg-ink-700 align-middle"
                aria-label="Loading"
              />
            )}
          </h1>
          <p className="mt-1 min-h-6 text-ink-300" aria-live="polite">
            {list.total !== null && `${countOf(list.total, 'texture', { atLeast: list.totalCapped })} · newest first`}
          </p>
        </div>
        {own && (
          <a href="/gallery/new" className="btn-primary">
            <PlusIcon /> Upload a texture
          </a>
        )}
      </header>
      <GalleryGrid list={list} empty={empty} />
    </div>
  );
}
