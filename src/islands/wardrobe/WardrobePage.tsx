// /wardrobe: every cape and ears the player has had, as a grid beside the 3D preview of the one chosen; each is worn or
// taken off in one click, renamed in place, and removed after a confirmation. Keyboard focus stays on the item a change
// was made to (on the next item after a removal), and what a change did shows at the bottom of the screen.
import { useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useStore } from '@nanostores/react';
import { formatDate, formatDateTime } from '../../lib/dates';
import { $user } from '../../lib/client/session';
import { WARDROBE_NAME_MAX, WARDROBE_SOURCE_LABELS, wardrobeNameMessage } from '../../lib/wardrobe-rules';
import { ConfirmButton } from '../shared/ConfirmButton';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import PlayerPreview from '../shared/PlayerPreview';
import type { CapeTexture } from '../shared/preview/images';
import { TextureImage } from '../shared/TextureImage';
import { useWardrobe, type FocusRequest, type Wardrobe, type WardrobeItem, type WardrobeState } from './useWardrobe';

/** How an item is called when it has no name: what it is, how it came in, and when (to the minute). */
function unnamed(item: Pick<WardrobeItem, 'kind' | 'source' | 'added_at'>): string {
  const kind = item.kind === 'ears' ? 'Ears' : 'Cape';
  const how = item.source === 'creator' ? 'made' : item.source === 'gallery' ? 'worn' : 'uploaded';
  return `${kind} ${how} ${formatDateTime(item.added_at)}`;
}

/** An item's name: the player's own or its file's, else its gallery title, else what it is and when it came in. */
function itemName(item: WardrobeItem): string {
  return item.name ?? item.title ?? unnamed(item);
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
      <p className="mt-2 text-center text-sm text-ink-300" aria-live="polite" data-testid="preview-caption">
        {shown
          ? `Showing ${itemName(shown)}${shown.worn ? ' (you wear it)' : ' (not worn)'}`
          : 'You wear nothing from your wardrobe. Choose an item to see it here.'}
      </p>
    </div>
  );
}

/** What removing an item does, in words: whether it is taken off, and whether it can be had again. */
function removeText(item: WardrobeItem): string {
  const noun = item.kind === 'ears' ? 'them' : 'it';
  const worn = item.worn
    ? `You wear ${noun} now, so ${noun === 'it' ? 'it is' : 'they are'} taken off first: players with the mod stop seeing ${noun}.`
    : `You do not wear ${noun}, so nothing changes in game.`;
  const back = item.gallery_hash
    ? `The gallery item stays in the gallery, where you can wear ${noun} again.`
    : item.source === 'creator'
      ? `To have ${noun} back, you would make ${noun} again.`
      : `To have ${noun} back, you would upload ${noun} again.`;
  return `${worn} ${back}`;
}

/** The rename form of an item: its name, checked as the server checks it; Escape or Cancel closes it unchanged. */
function RenameForm({
  item,
  state,
  onClose,
}: {
  item: WardrobeItem;
  state: WardrobeState;
  onClose: (renamed: boolean) => void;
}) {
  const [value, setValue] = useState(item.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = `rename-${item.id}-error`;
  useEffect(() => inputRef.current?.select(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const message = wardrobeNameMessage(value);
    setError(message);
    if (message) return inputRef.current?.focus();
    if (await state.rename(item, value.trim())) onClose(true);
  };
  const cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose(false);
  };

  return (
    <form className="flex flex-col gap-2" onSubmit={(event) => void submit(event)} onKeyDown={cancelOnEscape}>
      <label className="text-sm font-semibold" htmlFor={`rename-${item.id}`}>
        Name
      </label>
      <input
        ref={inputRef}
        id={`rename-${item.id}`}
        className="input"
        value={value}
        maxLength={WARDROBE_NAME_MAX * 2}
        placeholder={item.title ?? unnamed(item)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => setValue(event.target.value)}
      />
      {error && (
        <p id={errorId} className="text-sm text-red-300">
          {error}
        </p>
      )}
      <p className="text-xs text-ink-300">
        Leave it empty to call it by {item.title ? 'its gallery title' : 'its date'}.
      </p>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary px-3 py-1.5 text-sm" disabled={state.busyId !== null}>
          Save name
        </button>
        <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => onClose(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One item: its picture (a button that shows it in the preview), name, where it came from, and its actions. */
function ItemCard({ item, state }: { item: WardrobeItem; state: WardrobeState }) {
  const name = itemName(item);
  const busy = state.busyId !== null;
  const shown = state.shown?.id === item.id;
  const [renaming, setRenaming] = useState(false);
  const renameRef = useRef<HTMLButtonElement>(null);
  const closeRename = (renamed: boolean) => {
    setRenaming(false);
    // A rename moves focus through the page's focus request; a cancel puts it back on the Rename button here.
    if (!renamed) requestAnimationFrame(() => renameRef.current?.focus());
  };
  // While a change is on its way the buttons say so but stay focusable (a disabled button would drop focus).
  const whileBusy = (action: () => void) => () => {
    if (!busy) action();
  };
  return (
    <li
      className={`card flex flex-col gap-3 p-4 ${shown ? 'border-brand-400' : ''}`}
      data-testid="wardrobe-item"
      data-item-id={item.id}
      aria-busy={state.busyId === item.id}
    >
      <button
        type="button"
        data-focus="show"
        className="rounded-lg text-left focus-visible:outline-2 focus-visible:outline-brand-400"
        aria-pressed={shown}
        aria-label={`Show ${name} in the preview`}
        onClick={() => state.show(item.id)}
      >
        <TextureImage url={item.animated_texture ?? item.texture} alt="" strip={Boolean(item.animated_texture)} />
      </button>
      <div className="min-w-0">
        <h3 className="truncate font-bold" title={name} data-testid="wardrobe-item-name">
          {name}
        </h3>
        <p className="text-sm text-ink-300">
          {item.kind === 'ears' ? 'Ears' : item.animated_texture ? 'Animated cape' : 'Cape'} ·{' '}
          {item.gallery_hash ? (
            <a href={`/gallery/${item.gallery_hash}`}>{WARDROBE_SOURCE_LABELS[item.source]}</a>
          ) : (
            WARDROBE_SOURCE_LABELS[item.source]
          )}{' '}
          · added <time dateTime={new Date(item.added_at).toISOString()}>{formatDateTime(item.added_at)}</time>
        </p>
        {item.worn && (
          <p className="mt-1 text-sm font-semibold text-emerald-300" data-testid="worn-badge">
            Wearing now
          </p>
        )}
      </div>
      {renaming ? (
        <RenameForm item={item} state={state} onClose={closeRename} />
      ) : (
        <div className="mt-auto flex flex-wrap gap-2">
          <button
            type="button"
            data-focus="wear"
            className={`${item.worn ? 'btn-secondary' : 'btn-primary'} px-3 py-1.5 text-sm`}
            aria-disabled={busy || undefined}
            onClick={whileBusy(() => state.change(item.worn ? 'wardrobeTakeOff' : 'wardrobeWear', item))}
          >
            {state.busyId === item.id ? 'Working…' : item.worn ? 'Take off' : 'Wear'}
            <span className="sr-only"> {name}</span>
          </button>
          <button
            type="button"
            ref={renameRef}
            data-focus="rename"
            className="btn-secondary px-3 py-1.5 text-sm"
            aria-disabled={busy || undefined}
            onClick={whileBusy(() => setRenaming(true))}
          >
            Rename<span className="sr-only"> {name}</span>
          </button>
          <ConfirmButton
            label="Remove"
            className="btn-secondary px-3 py-1.5 text-sm"
            disabled={busy}
            title={`Remove ${name} from your wardrobe?`}
            cancelLabel="Keep it"
            confirmLabel="Remove"
            onConfirm={() => state.change('wardrobeRemove', item)}
          >
            {removeText(item)}
          </ConfirmButton>
        </div>
      )}
    </li>
  );
}

/** Moves keyboard focus where the last change asked (an item's control, or the page's heading). */
function useFocusAfterChange(focus: FocusRequest | null, busy: boolean) {
  useEffect(() => {
    if (!focus || busy) return;
    const item = focus.itemId ? document.querySelector(`[data-item-id="${CSS.escape(focus.itemId)}"]`) : null;
    const target = item?.querySelector<HTMLElement>(`[data-focus="${focus.control}"]`) ?? document.querySelector('h1');
    if (target && !target.hasAttribute('tabindex') && target.tagName === 'H1') target.setAttribute('tabindex', '-1');
    target?.focus();
  }, [focus, busy]);
}

/** What the last change did, at the bottom of the screen where the player looks, until the next change or closed. */
function ChangeToast({ state }: { state: WardrobeState }) {
  const { notice } = state;
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-30 flex justify-center px-4">
      <div
        role="status"
        className={
          notice
            ? `pointer-events-auto flex max-w-xl items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${
                notice.ok
                  ? 'border-emerald-400/40 bg-ink-800 text-emerald-200'
                  : 'border-red-400/40 bg-ink-800 text-red-200'
              }`
            : 'sr-only'
        }
      >
        {notice && (
          <>
            <span data-testid="wardrobe-notice">{notice.text}</span>
            <button
              type="button"
              className="-my-1 rounded px-2 py-1 text-ink-300 hover:text-ink-100"
              aria-label="Close this message"
              onClick={state.dismissNotice}
            >
              ×
            </button>
          </>
        )}
      </div>
    </div>
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
          Your wardrobe was full, so{' '}
          {dropped.title ?? `the ${dropped.kind === 'ears' ? 'ears' : 'cape'} of ${formatDate(dropped.added_at)}`} made
          room for a new item on {formatDate(dropped.dropped_at)}.
        </p>
      )}
    </>
  );
}

/** The wardrobe page's island. */
export default function WardrobePage() {
  const state = useWardrobe();
  const { wardrobe, loadError } = state;
  useFocusAfterChange(state.focus, state.busyId !== null);

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
        <ChangeToast state={state} />
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
      <ChangeToast state={state} />
      <Preview items={wardrobe.items} shown={state.shown} />
      <div className="min-w-0">
        <Capacity wardrobe={wardrobe} />
        <ul className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Your wardrobe">
          {wardrobe.items.map((item) => (
            <ItemCard key={item.id} item={item} state={state} />
          ))}
        </ul>
      </div>
    </div>
  );
}
