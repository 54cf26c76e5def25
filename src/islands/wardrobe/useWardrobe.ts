// The wardrobe's state on its page: loading, the items, the one shown in the 3D preview, and the wear, take-off and
// remove calls (one at a time), each answering the wardrobe as it is after it.
import { useCallback, useEffect, useState } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay } from '../../lib/api-client';

/** The wardrobe as the API answers it. */
export type Wardrobe = ApiAnswer<'wardrobe'>;
/** One wardrobe item. */
export type WardrobeItem = Wardrobe['items'][number];

/** A change the page makes to one item. */
export type WardrobeChange = 'wardrobeWear' | 'wardrobeTakeOff' | 'wardrobeRemove';

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
  change: (call: WardrobeChange, item: WardrobeItem) => void;
  reload: () => void;
}

/** What a done change says. */
function doneText(call: WardrobeChange, item: WardrobeItem): string {
  const noun = item.kind === 'ears' ? 'these ears' : 'this cape';
  if (call === 'wardrobeWear')
    return `You're wearing ${noun} now: players with the mod see ${item.kind === 'ears' ? 'them' : 'it'}.`;
  if (call === 'wardrobeTakeOff') return `You took ${noun} off. It stays in your wardrobe.`;
  return `Removed ${noun} from your wardrobe.`;
}

/** Loads the player's wardrobe and runs its changes. */
export function useWardrobe(): WardrobeState {
  const [wardrobe, setWardrobe] = useState<Wardrobe | null>(null);
  const [loadError, setLoadError] = useState<ErrorDisplay | null>(null);
  const [shownId, setShownId] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [notice, setNotice] = useState<ChangeNotice | null>(null);
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

  const change = useCallback(
    async (call: WardrobeChange, item: WardrobeItem) => {
      if (busyId) return;
      setBusyId(item.id);
      setNotice(null);
      try {
        setWardrobe(await apiCall(call, { body: { id: item.id } }));
        setNotice({ ok: true, text: doneText(call, item) });
        if (call === 'wardrobeWear') setShownId(item.id);
      } catch (failure) {
        const shown = describeApiError(errorBody(failure));
        setNotice({ ok: false, text: shown.kind === 'message' ? shown.message : shown.messages.join(' ') });
      } finally {
        setBusyId(null);
      }
    },
    [busyId],
  );

  const items = wardrobe?.items ?? [];
  const shown = items.find((item) => item.id === shownId) ?? items.find((item) => item.worn) ?? items[0] ?? null;
  return {
    wardrobe,
    loadError,
    shown,
    show: setShownId,
    busyId,
    notice,
    change: (call, item) => void change(call, item),
    reload: () => setVersion((value) => value + 1),
  };
}
