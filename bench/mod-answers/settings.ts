// The mod answers bench's settings (from the environment): the seed, the paths, the mix, the runs and the ports.

/** How many players the bench seeds. */
export const PLAYERS = Number(process.env.PLAYERS ?? 10_000);
/** The share of players who have something to show (a cape); the others are answered 404 like unknown players. */
export const SHOWING = Number(process.env.SHOWING ?? 0.1);
export const TEXTURES = Number(process.env.TEXTURES ?? 200);
/**
 * Paths per list: wrk walks each list in order from a random line, so a list of unknown ids asks a new one every time.
 */
export const LIST = Number(process.env.LIST ?? 200_000);
/**
 * The realistic mix: the share of requests about unknown players, and the exponent of the known players' Zipf
 * popularity.
 */
export const UNKNOWN_SHARE = Number(process.env.UNKNOWN_SHARE ?? 0.9);
export const ZIPF = Number(process.env.ZIPF ?? 1);
/**
 * The players with nothing to show that traffic asks about again and again (every game that sees one asks): the
 * `unknown-seen` case and the mix draw them with Zipf popularity from this many ids; the `unknown` case asks a new id
 * every time (a flood of made-up ids).
 */
export const UNKNOWN_POOL = Number(process.env.UNKNOWN_POOL ?? Math.min(10 * PLAYERS, 1_000_000));
/** The mix's layouts and their weights (textures: known players only, the texture their answer names). */
export const MIX = process.env.MIX ?? 'profile:60,textures:15,still:8,csl:6,elytra:4,gif:4,strip:3';
/**
 * How the mix names unknown players on the layouts asked by name: as the game spells names (`game`, capitals included)
 * or in lowercase (`lower`).
 */
export const MIX_NAMES = process.env.MIX_NAMES === 'lower' ? 'lower' : 'game';
export const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
export const DURATION_S = Number(process.env.DURATION ?? 10);
export const WARMUP_S = Number(process.env.WARMUP ?? 5);
export const ROUNDS = Number(process.env.ROUNDS ?? 3);
/**
 * The requests per second offered to each target of a case loaded at once (the app's cases), spread over its
 * connections; 0 loads each as fast as it answers.
 */
export const RATE = Number(process.env.RATE ?? 4_000);
export const NGINX_WORKERS = Number(process.env.NGINX_WORKERS ?? 1);
/**
 * Only these cases (comma-separated names), when given; a name of none (CASES=none) gives the seed, directory and
 * memory figures alone.
 */
export const ONLY_CASES = process.env.CASES?.split(',').filter(Boolean);
/** Unless PIN=0, every server runs on core 1 and wrk on core 0. */
export const PIN = process.env.PIN !== '0';
export const SERVER_CORE = 1;
export const LOAD_CORE = 0;
export const BASE_PORT = Number(process.env.BENCH_PORT ?? 4410);
export const PORTS = {
  shipped: BASE_PORT,
  app: BASE_PORT + 1,
  metrics: BASE_PORT + 2,
  static: BASE_PORT + 3,
  node: BASE_PORT + 4,
  fastify: BASE_PORT + 5,
  sameFiles: BASE_PORT + 6,
};
/** Node with the TypeScript loader, as `npm start` runs the server, without tsx's extra parent process. */
export const NODE_TS = [process.execPath, '--import', 'tsx'] as const;
