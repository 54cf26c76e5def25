// The gallery bench's data: a deterministic gallery of ITEMS items over USERS players (titles, types, likes, tags,
// banned players' hidden items), built in memory once and seeded alike into every backend.
import { createHash } from 'node:crypto';
import { seededRandom } from '../../support/textures.ts';
import { zipfSampler } from '../zipf.ts';
import { BANNED_EVERY, ITEMS, TWO_YEARS_MS, USERS, VIEWER } from './settings.ts';

/** Title words, most popular first (Zipf-distributed in titles). */
const WORDS = (
  'cool red blue dark fire dragon shadow gold night star black green pixel ice storm king wolf neon purple galaxy ' +
  'moon sun ocean forest rainbow ender creeper diamond emerald crystal sky light void frost thunder lava phoenix tiger ' +
  'cat fox panda bee axolotl slime ghost demon angel knight wizard ninja samurai pirate royal crown heart flower cherry ' +
  'sakura autumn winter summer spring snow rain cloud sunset sunrise aurora comet nebula cosmic solar lunar astral ' +
  'mystic magic rune ancient golden silver bronze copper iron steel obsidian quartz amethyst ruby sapphire topaz jade ' +
  'pearl coral wave tide river mountain desert jungle swamp cave nether end portal beacon torch lantern candle ember ' +
  'flame blaze spark bolt volt static glitch retro vapor synth cyber techno robot mech circuit binary matrix code ' +
  'hacker gamer legend hero villain rogue hunter archer mage sorcerer witch warlock druid paladin monk bard ranger ' +
  'viking spartan titan giant dwarf elf orc goblin troll kraken hydra griffin unicorn pegasus basilisk chimera ' +
  'wyvern serpent viper cobra raven crow owl hawk eagle falcon sparrow swan flamingo peacock parrot penguin dolphin ' +
  'whale shark octopus jellyfish turtle frog lizard gecko hamster bunny kitten puppy otter koala sloth llama alpaca ' +
  'mushroom cactus bamboo clover lotus orchid tulip daisy poppy lavender marigold zinnia quokka narwhal'
).split(' ');

/** Tag keys by popularity, most used first. */
export const TAG_POPULARITY = [
  'colourful',
  'minimal',
  'anime',
  'games',
  'pixel-art',
  'dark',
  'abstract',
  'animals',
  'cute',
  'memes',
  'nature',
  'space',
  'logos',
  'flags',
  'text',
  'vanilla-style',
  'pride',
  'food',
  'sports',
  'holidays',
];

/** The generated gallery, as columns: items, their authors, likes and tags. */
export interface Dataset {
  userUuids: string[];
  hashes: string[];
  stripHashes: Array<string | null>;
  titles: string[];
  titlesLower: string[];
  authors: Int32Array;
  types: Uint8Array;
  whitelisted: Uint8Array;
  likes: Int32Array;
  downloads: Int32Array;
  createdAt: Float64Array;
  /** Bit i set when the item has TAG_POPULARITY[i]. */
  tagMasks: Uint32Array;
  /** gallery_likes rows as (item index, user index) pairs. */
  likeItems: Int32Array;
  likeUsers: Int32Array;
  tagRows: number;
  start: number;
  /** 1 for the items of banned players (hidden). */
  hidden: Uint8Array;
}

/** Whether the bench bans player `u` (never the viewer). */
export function isBanned(u: number): boolean {
  return BANNED_EVERY > 0 && u !== VIEWER && u % BANNED_EVERY === BANNED_EVERY - 1;
}

/** The hex SHA-256 of a text. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Builds the whole data set in memory (same for every backend). */
export function generate(): Dataset {
  const random = seededRandom(0xc10a4);
  const word = zipfSampler(WORDS.length, 1, random);
  const tag = zipfSampler(TAG_POPULARITY.length, 1, random);
  const userUuids = Array.from({ length: USERS }, (_, i) => sha256(`user-${i}`).slice(0, 32));
  const hashes = new Array<string>(ITEMS);
  const stripHashes = new Array<string | null>(ITEMS);
  const titles = new Array<string>(ITEMS);
  const titlesLower = new Array<string>(ITEMS);
  const authors = new Int32Array(ITEMS);
  const types = new Uint8Array(ITEMS);
  const whitelisted = new Uint8Array(ITEMS);
  const likes = new Int32Array(ITEMS);
  const downloads = new Int32Array(ITEMS);
  const createdAt = new Float64Array(ITEMS);
  const tagMasks = new Uint32Array(ITEMS);
  const start = Date.UTC(2024, 10, 1);
  let tagRows = 0;
  let totalLikes = 0;
  for (let i = 0; i < ITEMS; i++) {
    hashes[i] = sha256(`gallery-item-${i}`);
    const r = random();
    const type = r < 0.7 ? 0 : r < 0.9 ? 1 : 2;
    types[i] = type;
    stripHashes[i] = type === 2 ? sha256(`gallery-strip-${i}`) : null;
    // Title: 1-3 words, an optional number, at most 20 characters, in one of three casings.
    const wordCount = 1 + (random() < 0.35 ? 0 : random() < 0.7 ? 1 : 2);
    const separator = random() < 0.85 ? ' ' : '_';
    const casing = random();
    let title = '';
    for (let w = 0; w < wordCount; w++) {
      let next = WORDS[word()];
      next = casing < 0.6 ? next[0].toUpperCase() + next.slice(1) : casing < 0.9 ? next : next.toUpperCase();
      const candidate = title ? `${title}${separator}${next}` : next;
      if (candidate.length > 20) break;
      title = candidate;
    }
    if (random() < 0.25) {
      const number = String(1 + Math.floor(random() * 2025));
      const candidate = random() < 0.5 ? `${title} ${number}` : `${title}${number}`;
      if (candidate.length <= 20) title = candidate;
    }
    titles[i] = title;
    titlesLower[i] = title.toLowerCase();
    authors[i] = Math.floor(random() * USERS);
    whitelisted[i] = random() < 0.01 ? 1 : 0;
    // Likes: Lomax (Pareto II, alpha 1.5): about 72 % zero, 96 % at most 5, a few dozen in the thousands.
    likes[i] = Math.min(USERS, Math.floor(0.75 * (Math.pow(1 - random(), -1 / 1.5) - 1)));
    totalLikes += likes[i];
    downloads[i] = likes[i] * (1 + Math.floor(random() * 8)) + Math.floor(2 * (Math.pow(1 - random(), -1 / 1.3) - 1));
    // Uploads spread over two years, in insertion order, with some jitter.
    createdAt[i] = Math.floor(start + (i / ITEMS) * TWO_YEARS_MS + random() * 3_600_000);
    const tagCount = random() < 0.4 ? 1 : random() < 0.67 ? 2 : 3;
    let mask = 0;
    while (countBits(mask) < tagCount) mask |= 1 << tag();
    tagMasks[i] = mask;
    tagRows += tagCount;
  }
  const hidden = Uint8Array.from(authors, (author) => (isBanned(author) ? 1 : 0));
  // gallery_likes: for each item, `likes` distinct random users, so gallery_items.likes matches the rows.
  const likeItems = new Int32Array(totalLikes);
  const likeUsers = new Int32Array(totalLikes);
  let n = 0;
  for (let i = 0; i < ITEMS; i++) {
    const k = likes[i];
    if (k === 0) continue;
    const chosen = new Set<number>();
    while (chosen.size < k) chosen.add(Math.floor(random() * USERS));
    for (const user of chosen) {
      likeItems[n] = i;
      likeUsers[n] = user;
      n++;
    }
  }
  return {
    userUuids,
    hashes,
    stripHashes,
    titles,
    titlesLower,
    authors,
    types,
    whitelisted,
    likes,
    downloads,
    createdAt,
    tagMasks,
    likeItems,
    likeUsers,
    tagRows,
    start,
    hidden,
  };
}

/** How many bits of a mask are set. */
function countBits(mask: number): number {
  let count = 0;
  for (let m = mask; m; m &= m - 1) count++;
  return count;
}

/** The tag keys of a tag mask (bit i: TAG_POPULARITY[i]). */
export function tagsOf(mask: number): string[] {
  const tags: string[] = [];
  for (let t = 0; t < TAG_POPULARITY.length; t++) if (mask & (1 << t)) tags.push(TAG_POPULARITY[t]);
  return tags;
}
