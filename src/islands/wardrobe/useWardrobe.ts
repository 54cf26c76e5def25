// The wardrobe's state on its page: loading, the items, the one shown in the 3D preview, the wear, take-off, rename and
// remove calls (one at a time), each answering the wardrobe as it is after it, and where keyboard focus goes after each.
import { useCallback, useEffect, useState } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay } from '../../lib/client/api-errors';

/** The wardrobe as the API answers it. */
export type Wardrobe = ApiAnswer<'wardrobe'>;
/** One wardrobe item. */
export type WardrobeItem = Wardrobe['items'][number];

/** A change the page makes to one item. */
export type WardrobeChange = 'wardrobeWear' | 'wardrobeTakeOff' | 'wardrobeRemove' | 'wardrobeRename';

/**
 * Where keyboard focus goes once a change is over: an item's control (its wear or take-off button, its rename button,
 * its picture), or the page's heading when no item is left; `serial` tells two requests for the same place apart.
 */
export interface FocusRequest {
  itemId: string | null;
  control: 'wear' | 'rename' | 'show';
  serial: number;
}

/** What the last change did, in words: done (ok) or why not. */
export interface ChangeNotice {
  ok: boolean;
  text: string;
}

/** What the page shows and does. */
export interface WardrobeState {
  wardrobe: Wardrobe | null;
  loadError: ErrorDisplay | null;
  /** The item shown in the 3D preview. */
  shown: WardrobeItem | null;
  show: (id: string) => void;
  /** The item a change is on its way for. */
  busyId: string | null;
  notice: ChangeNotice | null;
  dismissNotice: () => void;
  /** Where focus goes after the last change (null before any). */
  focus: FocusRequest | null;
  change: (call: Exclude<WardrobeChange, 'wardrobeRename'>, item: WardrobeItem) => void;
  /** Names an item (an empty name takes its name away); resolves true once renamed. */
  rename: (item: WardrobeItem, name: string) => Promise<boolean>;
  reload: () => void;
}

/** What a done change says. */
function doneText(call: WardrobeChange, item: WardrobeItem): string {
  const noun = item.kind === 'ears' ? 'these ears' : 'this cape';
  if (call === 'wardrobeWear')
    return `You're wearing ${noun} now: players with the mod see ${item.kind === 'ears' ? 'them' : 'it'}.`;
  if (call === 'wardrobeTakeOff') return `You took ${noun} off. It stays in your wardrobe.`;
  if (call === 'wardrobeRename') return 'Renamed.';
  return `Removed ${noun} from your wardrobe.`;
}

/**
 * Where focus goes after a change of `item` (`done` when it went through): back to the control that made it, or after a
 * removal to the next item (else the one before, else the page's heading).
 */
function focusAfter(
  call: WardrobeChange,
  item: WardrobeItem,
  done: boolean,
  before: WardrobeItem[],
  serial: number,
): FocusRequest {
  if (call === 'wardrobeRename') return { itemId: item.id, control: 'rename', serial };
  if (call !== 'wardrobeRemove' || !done) return { itemId: item.id, control: 'wear', serial };
  const at = before.findIndex((entry) => entry.id === item.id);
  const neighbour = before[at + 1] ?? before[at - 1] ?? null;
  return { itemId: neighbour?.id ?? null, control: 'show', serial };
}

/** Loads the player's wardrobe and runs its changes. */
export function useWardrobe(): WardrobeState {
  const [wardrobe, setWardrobe] = useState<Wardrobe | null>(null);
  const [loadError, setLoadError] = useState<ErrorDisplay | null>(null);
  const [shownId, setShownId] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [notice, setNotice] = useState<ChangeNotice | null>(null);
  const [focus, setFocus] = useState<FocusRequest | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    setLoadError(null);
    apiCall('wardrobe').then(
      (answer) => live && setWardrobe(answer),
      (failure: unknown) => live && setLoadError(describeApiError(errorBody(failure))),
    );
    return () => {
      live = false;
    };
  }, [version]);

  const run = useCallback(
    async (call: WardrobeChange, item: WardrobeItem, name?: string): Promise<boolean> => {
      if (busyId) return false;
      setBusyId(item.id);
      setNotice(null);
      let done = false;
      try {
        const after =
          call === 'wardrobeRename'
            ? await apiCall(call, { body: { id: item.id, name: name ?? '' } })
            : await apiCall(call, { body: { id: item.id } });
        setWardrobe(after);
        setNotice({ ok: true, text: doneText(call, item) });
        if (call === 'wardrobeWear') setShownId(item.id);
        // Taken off or removed, the item no longer shows: the preview goes back to what the player wears.
        if (call === 'wardrobeTakeOff' || call === 'wardrobeRemove') setShownId(null);
        done = true;
      } catch (failure) {
        const shown = describeApiError(errorBody(failure));
        setNotice({ ok: false, text: shown.kind === 'message' ? shown.message : shown.messages.join(' ') });
      } finally {
        setBusyId(null);
      }
      setFocus((last) => focusAfter(call, item, done, wardrobe?.items ?? [], (last?.serial ?? 0) + 1));
      return done;
    },
    [busyId, wardrobe],
  );

  const items = wardrobe?.items ?? [];
  // The preview shows the item the player chose, else what they wear; nothing when they wear nothing.
  const shown = items.find((item) => item.id === shownId) ?? items.find((item) => item.worn) ?? null;
  return {
    wardrobe,
    loadError,
    shown,
    show: setShownId,
    busyId,
    notice,
    dismissNotice: () => setNotice(null),
    focus,
    change: (call, item) => void run(call, item),
    rename: (item, name) => run('wardrobeRename', item, name),
    reload: () => setVersion((value) => value + 1),
  };
}
