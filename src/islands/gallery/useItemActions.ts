// The state of one gallery item as a card or the texture page shows it: waiting, delete confirm, report confirm,
// report_whitelisted, edit; optimistic likes; shown downloads; wearing it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { describeApiError, errorBody, type ErrorDisplay } from '../../lib/client/api-errors';
import { galleryMessages } from '../../lib/gallery-rules';
import { $user } from '../../lib/client/session';
import { likeItem, wearItem, wornMessage, type GalleryItem } from './gallery-api';

/** What the last wear did: put the item on (ok), or why not, in words. */
export interface WearNotice {
  ok: boolean;
  text: string;
}

/** The card's states (edit only on the texture page). */
export type ItemState = 'waiting' | 'delete' | 'report' | 'report_whitelisted' | 'edit';

/** What a card or the texture page needs to show and change an item. */
export interface ItemActions {
  item: GalleryItem;
  state: ItemState;
  /** A short message about the like button (visitors, a failed like). */
  likeNotice: ErrorDisplay | null;
  /** Whether the viewer may edit and delete (author or admin). */
  canManage: boolean;
  /**
   * Whether the viewer's Delete is a moderator's removal of someone else's item: it needs a reason and takes the picture
   * off every player wearing it.
   */
  deletesForReason: boolean;
  /** Whether the viewer may report (anyone logged in but the author). */
  canReport: boolean;
  /** Whether the viewer may wear it (anyone logged in). */
  canWear: boolean;
  /** Whether a wear is on its way. */
  wearing: boolean;
  /** What the last wear did: put the item on (ok), or why not. */
  wearNotice: WearNotice | null;
  /** Puts the item on the player (its cape or ears), and counts the wear. */
  wear: () => void;
  /** Toggles the like at once and rolls it back if the call fails. */
  toggleLike: () => void;
  /** Counts a download in what is shown (the server counts the real one). */
  countDownload: () => void;
  /** Opens the report step, or report_whitelisted for a texture staff marked safe. */
  openReport: () => void;
  openDelete: () => void;
  openEdit: () => void;
  /** Back to waiting. */
  cancel: () => void;
  /** Replaces the item (after an edit or a reload). */
  replaceItem: (item: GalleryItem) => void;
}

/** Runs one item's states and its like and download counts. */
export function useItemActions(initial: GalleryItem): ItemActions {
  const user = useStore($user);
  const [item, setItem] = useState(initial);
  const [state, setState] = useState<ItemState>('waiting');
  const [likeNotice, setLikeNotice] = useState<ErrorDisplay | null>(null);
  const liking = useRef(false);
  const [wearing, setWearing] = useState(false);
  const [wearNotice, setWearNotice] = useState<WearNotice | null>(null);
  const itemRef = useRef(item);
  itemRef.current = item;

  // A fresh copy from the list (new filters) replaces the local one.
  useEffect(() => setItem(initial), [initial]);

  // The like message fades after a few seconds.
  useEffect(() => {
    if (!likeNotice) return;
    const timer = window.setTimeout(() => setLikeNotice(null), 4000);
    return () => window.clearTimeout(timer);
  }, [likeNotice]);

  const toggleLike = useCallback(async () => {
    if (!user) {
      setLikeNotice({ kind: 'message', message: galleryMessages.loginToLike });
      return;
    }
    if (liking.current) return;
    liking.current = true;
    const current = itemRef.current;
    const before = { user_liked: current.user_liked, total_user_likes: current.total_user_likes };
    setItem({
      ...current,
      user_liked: !current.user_liked,
      total_user_likes: Math.max(0, current.total_user_likes + (current.user_liked ? -1 : 1)),
    });
    setLikeNotice(null);
    try {
      const result = await likeItem(current.hash);
      setItem((latest) => ({ ...latest, user_liked: result.liked, total_user_likes: result.total_user_likes }));
    } catch (failure) {
      setItem((latest) => ({ ...latest, ...before }));
      setLikeNotice(describeApiError(errorBody(failure), "That like didn't go through. Try again."));
    } finally {
      liking.current = false;
    }
  }, [user]);

  const wear = useCallback(async () => {
    const current = itemRef.current;
    setWearing(true);
    setWearNotice(null);
    try {
      const result = await wearItem(current.hash);
      setItem((latest) => ({ ...latest, wears: result.wears, user_wears: true }));
      setWearNotice({ ok: true, text: wornMessage(current) });
    } catch (failure) {
      const display = describeApiError(errorBody(failure), "That didn't go through. Try again.");
      setWearNotice({ ok: false, text: display.kind === 'message' ? display.message : display.messages.join(' ') });
    } finally {
      setWearing(false);
    }
  }, []);

  const countDownload = useCallback(() => setItem((current) => ({ ...current, downloads: current.downloads + 1 })), []);

  const isAuthor = !!user && user.uuid === item.author;
  return {
    item,
    state,
    likeNotice,
    canManage: !!user && (isAuthor || user.group?.admin === true),
    deletesForReason: !!user && !isAuthor && user.group?.admin === true,
    canReport: !!user && !isAuthor,
    canWear: !!user,
    wearing,
    wearNotice,
    wear: () => void wear(),
    toggleLike: () => void toggleLike(),
    countDownload,
    openReport: () => setState(item.whitelisted ? 'report_whitelisted' : 'report'),
    openDelete: () => setState('delete'),
    openEdit: () => setState('edit'),
    cancel: () => setState('waiting'),
    replaceItem: setItem,
  };
}
