// /wardrobe: every cape and ears the player has had, as a grid beside the 3D preview of the one chosen; each is worn or
// taken off in one click, and removed after a confirmation.
import { useMemo } from 'react';
import { useStore } from '@nanostores/react';
import { formatDate } from '../../lib/dates';
import { $user } from '../../lib/client/session';
import { WARDROBE_SOURCE_LABELS } from '../../lib/wardrobe-rules';
import { ConfirmButton } from '../shared/ConfirmButton';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import PlayerPreview from '../shared/PlayerPreview';
import type { CapeTexture } from '../shared/preview/images';
import { TextureImage } from '../shared/TextureImage';
import { useWardrobe, type Wardrobe, type WardrobeItem, type WardrobeState } from './useWardrobe';

/** An item's name: its gallery title, or what it is and when it came in. */
function itemName(item: Pick<WardrobeItem, 'kind' | 'title' | 'added_at'>): string {
  return item.title ?? `${item.kind === 'ears' ? 'Ears' : 'Cape'} of ${formatDate(item.added_at)}`;
}

/** The cape the preview shows for an item: its animation when it has one. */
function capeOf(item: WardrobeItem | undefined): CapeTexture | null {
  if (!item) return null;
  return item.animated_texture ? { kind: 'strip', url: item.animated_texture } : { kind: 'image', url: item.texture };
}

/** The 3D preview: the chosen item, with what the player wears in the other slot. */
function Preview({ items, shown }: { items: WardrobeItem[]; shown: WardrobeItem | null }) {
  const user = useStore($user);
  const capeItem = shown?.kind === 'cape' ? shown : items.find((item) => item.kind === 'cape' && item.worn);
  const earsItem = shown?.kind === 'ears' ? shown : items.find((item) => item.kind === 'ears' && item.worn);
  const capeUrl = capeItem?.animated_texture ?? capeItem?.texture ?? null;
  const cape = useMemo(() => capeOf(capeItem), [capeUrl]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="lg:sticky lg:top-6" data-testid="wardrobe-preview">
      <PlayerPreview
        uuid={user?.uuid ?? null}
        cape={cape}
        ears={earsItem?.texture ?? null}
        facing={shown?.kind === 'ears' ? 'front' : 'back'}
        elytraToggle={Boolean(cape)}
      />
      <p className="mt-2 text-center text-sm text-ink-300" aria-live="polite">
        {shown ? `Showing ${itemName(shown)}` : 'Nothing to show yet'}
      </p>
    </div>
  );
}

/** One item: its picture (a button that shows it in the preview), name, where it came from, and its actions. */
function ItemCard({ item, state }: { item: WardrobeItem; state: WardrobeState }) {
  const name = itemName(item);
  const busy = state.busyId !== null;
  const shown = state.shown?.id === item.id;
  return (
    <li
      className={`card flex flex-col gap-3 p-4 ${shown ? 'border-brand-400' : ''}`}
      data-testid="wardrobe-item"
      aria-busy={state.busyId === item.id}
    >
      <button
        type="button"
        className="rounded-lg text-left focus-visible:outline-2 focus-visible:outline-brand-400"
        aria-pressed={shown}
        aria-label={`Show ${name} in the preview`}
        onClick={() => state.show(item.id)}
      >
        <TextureImage url={item.animated_texture ?? item.texture} alt="" strip={Boolean(item.animated_texture)} />
      </button>
      <div className="min-w-0">
        <h3 className="truncate font-bold" title={name}>
          {name}
        </h3>
        <p className="text-sm text-ink-300">
          {item.kind === 'ears' ? 'Ears' : item.animated_texture ? 'Animated cape' : 'Cape'} ·{' '}
          {item.gallery_hash ? (
            <a href={`/gallery/${item.gallery_hash}`}>{WARDROBE_SOURCE_LABELS[item.source]}</a>
          ) : (
            WARDROBE_SOURCE_LABELS[item.source]
          )}{' '}
          · added <time dateTime={new Date(item.added_at).toISOString()}>{formatDate(item.added_at)}</time>
        </p>
        {item.worn && (
          <p className="mt-1 text-sm font-semibold text-emerald-300" data-testid="worn-badge">
            Wearing now
          </p>
        )}
      </div>
      <div className="mt-auto flex flex-wrap gap-2">
        {item.worn ? (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5 text-sm"
            disabled={busy}
            onClick={() => state.change('wardrobeTakeOff', item)}
          >
            Take off<span className="sr-only"> {name}</span>
          </button>
        ) : (
          <button
            type="button"
            className="btn-primary px-3 py-1.5 text-sm"
            disabled={busy}
            onClick={() => state.change('wardrobeWear', item)}
          >
            Wear<span className="sr-only"> {name}</span>
          </button>
        )}
        <ConfirmButton
          label="Remove"
          className="btn-secondary px-3 py-1.5 text-sm"
          disabled={busy}
          title={`Remove ${name} from your wardrobe?`}
          cancelLabel="Keep it"
          confirmLabel="Remove"
          onConfirm={() => state.change('wardrobeRemove', item)}
        >
          {item.worn
            ? 'You are wearing it: removing it also takes it off, and it leaves your wardrobe.'
            : 'It leaves your wardrobe.'}
        </ConfirmButton>
      </div>
    </li>
  );
}

/** What a full wardrobe let go last, and the rule. */
function Capacity({ wardrobe }: { wardrobe: Wardrobe }) {
  const { dropped } = wardrobe;
  return (
    <>
      <p className="text-sm text-ink-300">
        {wardrobe.items.length} of {wardrobe.limit} items. When it is full, the oldest item you are not wearing makes
        room for a new one.
      </p>
      {dropped && (
        <p
          className="mt-3 rounded-lg border border-amber-400/40 bg-amber-400/10 px-4 py-3 text-amber-100"
          role="status"
        >
          Your wardrobe was full, so {itemName(dropped)} made room for a new item on {formatDate(dropped.dropped_at)}.
        </p>
      )}
    </>
  );
}

/** The wardrobe page's island. */
export default function WardrobePage() {
  const state = useWardrobe();
  const { wardrobe, loadError } = state;

  if (loadError) {
    return (
      <div className="card">
        <ErrorDisplay error={loadError} />
        <button type="button" className="btn-secondary mt-4" onClick={state.reload}>
          Try again
        </button>
      </div>
    );
  }
  if (!wardrobe) {
    return (
      <div aria-busy="true">
        <p role="status" className="sr-only">
          Loading your wardrobe…
        </p>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-hidden="true">
          {[0, 1, 2].map((index) => (
            <li key={index} className="card h-64 animate-pulse" />
          ))}
        </ul>
      </div>
    );
  }
  if (wardrobe.items.length === 0) {
    return (
      <div className="card text-center" data-testid="wardrobe-empty">
        <h2 className="text-xl font-bold">Your wardrobe is empty</h2>
        <p className="mt-2 text-ink-300">
          Every cape and ears you upload, make or wear from the gallery comes in here, to wear again in one click.
        </p>
        <p className="mt-4 flex flex-wrap justify-center gap-3">
          <a className="btn-primary" href="/upload-cape">
            Upload a cape
          </a>
          <a className="btn-secondary" href="/gallery">
            Browse the gallery
          </a>
        </p>
      </div>
    );
  }
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
      <Preview items={wardrobe.items} shown={state.shown} />
      <div className="min-w-0">
        <Capacity wardrobe={wardrobe} />
        <p
          className={`mt-3 min-h-6 text-sm ${state.notice?.ok === false ? 'text-red-300' : 'text-emerald-300'}`}
          role="status"
          data-testid="wardrobe-notice"
        >
          {state.notice?.text}
        </p>
        <ul className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Your wardrobe">
          {wardrobe.items.map((item) => (
            <ItemCard key={item.id} item={item} state={state} />
          ))}
        </ul>
      </div>
    </div>
  );
}
