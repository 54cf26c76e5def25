// The settings of the mod API, uploads, image work and the cape creators: each one's parser, default and description.
import { z } from 'zod';
import { IMAGE_JOB_DEFAULTS } from './image-job-limits.ts';
import { flag, isHostOrOrigin, list } from './parsers.ts';
import { settingsOf } from './setting.ts';

/** The settings of the mod API, uploads, image work and the cape creators. */
export const TEXTURE_SETTINGS = {
  ...settingsOf('Mod API and caches', {
    PUBLIC_BASE_URL: {
      schema: z.string().url().optional(),
      default: '`http://localhost:$PORT`',
      description:
        "public origin of this server; texture URLs in the mod API and the mod settings on `/help/mods` start with it, so it must be an address the players' " +
        'games can reach (the site is rebuilt when it changes, or when `PORT` changes while it is unset)',
    },
    PROFILE_CACHE_SIZE: {
      schema: z.coerce.number().int().positive().default(1_000_000),
      description:
        'players kept in the in-process mod API profile cache (about 300 B of heap each, measured in `bench/profile-cache.ts`; only players asked for are kept)',
    },
    PROFILE_CACHE_TTL_S: {
      schema: z.coerce.number().int().positive().default(300),
      description:
        'seconds a cached profile is served without a change notice (bounds staleness from processes that share no Redis)',
    },
    ANSWER_FILES_DIR: {
      schema: z.string().default(''),
      default: 'unset',
      description:
        'the answer directory: the whole mod API as files (each at its URL path) for nginx to serve (`deploy/nginx/cloakroom.conf`), ' +
        'kept complete by the processes on every change and built by `npx cloakroom answers rebuild`; the processes of one host share one; ' +
        'unset writes none (see [operations](operations.md#what-nginx-keeps))',
    },
    MOD_CATCH_UP_S: {
      schema: z.coerce.number().int().positive().default(10),
      description:
        'seconds between two reads of the mod API change log, in which each process handles the changes whose notice it missed ' +
        '(Redis down, a restart): a missed change reaches its memory and answer files within this',
    },
    TEXTURE_CACHE_MB: {
      schema: z.coerce.number().min(0).default(64),
      description:
        "MB of texture files the mod API keeps in memory (`0`: none; a released texture is dropped at once, another process's release is noticed within 60 s)",
    },
  }),
  ...settingsOf('Uploads and image work', {
    GALLERY_UPLOADS_PER_10_MINUTES: {
      schema: z.coerce.number().int().positive().default(5),
      description: 'gallery uploads per session per 10 minutes (then 429)',
    },
    GALLERY_DOWNLOADS_PER_MINUTE: {
      schema: z.coerce.number().int().positive().default(30),
      description: 'gallery downloads per user per minute (then 429)',
    },
    TEXTURE_UPLOADS_PER_10_MINUTES: {
      schema: z.coerce.number().int().positive().default(20),
      description:
        "texture changes per player per 10 minutes, all together (then 429): cape and ears uploads, take-offs, the wardrobe's wear, take-off and remove, Wear this and wearing a creator's cape",
    },
    WARDROBE_ITEMS: {
      schema: z.coerce.number().int().positive().default(30),
      description:
        "items a player's wardrobe keeps (capes and ears together); a new one past it lets the oldest unworn item go",
    },
    IMAGE_JOB_CONCURRENCY: {
      schema: z.coerce.number().int().positive().optional(),
      default: 'cores − 1, at least 1',
      description:
        'image jobs of any size (texture processing, creators, previews, maps, GIF builds) that run at once, each in a worker process at nice 10; ' +
        'the rest wait, fairly between players',
    },
    IMAGE_SMALL_JOB_SLOTS: {
      schema: z.coerce.number().int().min(0).default(IMAGE_JOB_DEFAULTS.smallSlots),
      description:
        'more image jobs that run at once, small ones only (see [the image queue](api.md#uploads-and-the-image-queue)); `0` for none',
    },
    IMAGE_SMALL_JOB_PIXELS: {
      schema: z.coerce.number().int().min(0).default(IMAGE_JOB_DEFAULTS.smallJobPixels),
      default: '`2097152` (2048 × 1024)',
      description:
        'the most pixels a small image job decodes and draws (every GIF frame counted, a GIF pixel twice and a GIF build 40 times: see [the image queue](api.md#uploads-and-the-image-queue))',
    },
    IMAGE_JOBS_PER_PLAYER: {
      schema: z.coerce.number().int().positive().default(IMAGE_JOB_DEFAULTS.perPlayer),
      description: 'image jobs one player may have queued or running (then 429)',
    },
    IMAGE_JOB_QUEUE_MAX: {
      schema: z.coerce.number().int().min(0).default(IMAGE_JOB_DEFAULTS.queueMax),
      description: 'image jobs that may wait for a slot (then 503)',
    },
    IMAGE_JOB_TIMEOUT_MS: {
      schema: z.coerce.number().int().positive().default(IMAGE_JOB_DEFAULTS.timeoutMs),
      description: 'how long an image job may run before its worker is killed (the job answers 503)',
    },
    IMAGE_WORK_SECONDS_PER_MINUTE: {
      schema: z.coerce.number().positive().default(IMAGE_JOB_DEFAULTS.workSecondsPerMinute),
      description: "seconds of image work (a worker's time on their jobs) one player may cause per minute (then 429)",
    },
  }),
  ...settingsOf('Cape creators', {
    MOJANG_SESSION_URL: {
      schema: z.string().url().default('https://sessionserver.mojang.com'),
      description: "Mojang session server base URL (a player's skin, for head capes)",
    },
    OPTIFINE_CAPES_URL: {
      schema: z.string().url().default('http://s.optifine.net'),
      description: "OptiFine-style cape server (`GET /capes/{name}.png`), for the OptiFine creator's username lookup",
    },
    AI_API_URL: {
      schema: z.string().url().optional(),
      description:
        'an OpenAI-compatible images API (`POST $AI_API_URL/images/generations`, bearer key) for the AI cape creator; until it and `AI_API_KEY` are set, ' +
        'the creator uses the built-in pattern generator, and the page says so',
    },
    AI_API_KEY: { schema: z.string().optional(), description: "the images API's bearer key (see `AI_API_URL`)" },
    AI_MODEL: {
      schema: z.string().default('gpt-image-1'),
      description: "the images API's model (`dall-e-3`, `gpt-image-1`, …)",
    },
    AI_IMAGE_HOSTS: {
      schema: list.refine((hosts) => hosts.every(isHostOrOrigin), {
        message: 'expected host names or origins (https://host:port), comma-separated',
      }),
      description:
        "hosts (names, or origins such as `https://images.example:8443`) an image URL in the images API's answer may point at besides the API's own " +
        'origin, comma-separated; any other is refused unfetched',
    },
    OUTSIDE_URLS_ALLOW_PRIVATE: {
      schema: flag,
      default: '`false`',
      description:
        'let an address taken from an outside answer (a skin URL, an image URL) be loopback, private or link-local; for local stand-ins only',
    },
    CREATOR_CALLS_PER_MINUTE: {
      schema: z.coerce.number().int().positive().default(60),
      description:
        'requests to the other cape creators per player per minute (then 429); their image work is bounded by `IMAGE_WORK_SECONDS_PER_MINUTE`',
    },
    AI_PROMPTS_PER_HOUR: {
      schema: z.coerce.number().int().positive().default(20),
      description: 'AI cape prompts per player per hour (then 429)',
    },
  }),
};
