// The server's configuration: one typed reading of the environment, with defaults that work on a fresh machine.
import path from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const list = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default('localhost'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  SITE_DIR: z.string().default('./dist'),
  PUBLIC_SITE_NAME: z.string().default('Cloakroom'),
  PUBLIC_SITE_ORIGINS: list,
  PUBLIC_DOWNLOAD_URL: z.string().url().default('https://modrinth.com/mod/cloakroom'),
  AUTH_API_KEY: z.string().optional(),
  MOJANG_API_URL: z.string().url().default('https://api.mojang.com'),
  OFFLINE_MODE: flag,
  MAINTENANCE: flag,
  TRUST_PROXY: flag,
  SESSION_DAYS: z.coerce.number().positive().default(30),
  LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().positive().default(10),
  MICROSOFT_CLIENT_ID: z.string().optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  PROFILE_CACHE_SIZE: z.coerce.number().int().positive().default(1_000_000),
  PROFILE_CACHE_TTL_S: z.coerce.number().int().positive().default(300),
  TEXTURE_CACHE_MB: z.coerce.number().min(0).default(64),
  GALLERY_UPLOADS_PER_10_MINUTES: z.coerce.number().int().positive().default(5),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** The server's settings. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `sqlite:<file>` or a `postgres://` URL. */
  databaseUrl: string;
  siteDir: string;
  siteName: string;
  siteOrigins: string[];
  downloadUrl: string;
  authApiKey: string | undefined;
  mojangApiUrl: string;
  offlineMode: boolean;
  maintenance: boolean;
  trustProxy: boolean;
  sessionDays: number;
  loginAttemptsPerMinute: number;
  microsoftClientId: string | undefined;
  logLevel: string;
  /** The public origin of this server, for absolute texture URLs in the mod API. */
  publicBaseUrl: string;
  redisUrl: string | undefined;
  /** The S3-compatible bucket for textures; undefined keeps them in DATA_DIR/textures. */
  s3: S3Config | undefined;
  profileCacheSize: number;
  /** How long a cached profile is served without a change notice, in ms. */
  profileCacheTtlMs: number;
  /** How many bytes of texture files the mod API keeps in memory (0: none). */
  textureCacheBytes: number;
  galleryUploadsPerTenMinutes: number;
}

/** An S3-compatible bucket. */
export interface S3Config {
  bucket: string;
  endpoint?: string | undefined;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
}

/** Reads the configuration from an environment (process.env by default); throws a readable error on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL || `sqlite:${path.join(dataDir, 'cloakroom.db')}`,
    siteDir: path.resolve(e.SITE_DIR),
    siteName: e.PUBLIC_SITE_NAME,
    siteOrigins: e.PUBLIC_SITE_ORIGINS,
    downloadUrl: e.PUBLIC_DOWNLOAD_URL,
    authApiKey: e.AUTH_API_KEY || undefined,
    mojangApiUrl: e.MOJANG_API_URL.replace(/\/+$/, ''),
    offlineMode: e.OFFLINE_MODE,
    maintenance: e.MAINTENANCE,
    trustProxy: e.TRUST_PROXY,
    sessionDays: e.SESSION_DAYS,
    loginAttemptsPerMinute: e.LOGIN_ATTEMPTS_PER_MINUTE,
    microsoftClientId: e.MICROSOFT_CLIENT_ID || undefined,
    logLevel: e.LOG_LEVEL,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    redisUrl: e.REDIS_URL || undefined,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : Boolean(e.S3_ENDPOINT),
        }
      : undefined,
    profileCacheSize: e.PROFILE_CACHE_SIZE,
    profileCacheTtlMs: e.PROFILE_CACHE_TTL_S * 1000,
    textureCacheBytes: Math.round(e.TEXTURE_CACHE_MB * 1024 * 1024),
    galleryUploadsPerTenMinutes: e.GALLERY_UPLOADS_PER_10_MINUTES,
  };
}
