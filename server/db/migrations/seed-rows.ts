// The rows the migrations seed: the players' group id and the gallery's starting tags (the admin group's id is in
// users.ts, which the code uses).

/** The group every new account joins. */
export const PLAYER_GROUP_ID = 1;

/** The gallery's starting tags. */
export const DEFAULT_TAGS: Array<{ tag_key: string; name: string }> = [
  { tag_key: 'abstract', name: 'Abstract' },
  { tag_key: 'animals', name: 'Animals' },
  { tag_key: 'anime', name: 'Anime' },
  { tag_key: 'colourful', name: 'Colourful' },
  { tag_key: 'cute', name: 'Cute' },
  { tag_key: 'dark', name: 'Dark' },
  { tag_key: 'flags', name: 'Flags' },
  { tag_key: 'food', name: 'Food' },
  { tag_key: 'games', name: 'Games' },
  { tag_key: 'holidays', name: 'Holidays' },
  { tag_key: 'logos', name: 'Logos' },
  { tag_key: 'memes', name: 'Memes' },
  { tag_key: 'minimal', name: 'Minimal' },
  { tag_key: 'nature', name: 'Nature' },
  { tag_key: 'pixel-art', name: 'Pixel Art' },
  { tag_key: 'pride', name: 'Pride' },
  { tag_key: 'space', name: 'Space' },
  { tag_key: 'sports', name: 'Sports' },
  { tag_key: 'text', name: 'Text' },
  { tag_key: 'vanilla-style', name: 'Vanilla Style' },
];
