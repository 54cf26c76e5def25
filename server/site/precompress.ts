// Writes brotli (.br, best quality) and gzip (.gz, level 9) copies beside the built site's text files, so the server
// sends them as they are.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** The file types that get compressed copies: text. Images, fonts and archives are compressed already. */
export const PRECOMPRESSED_TYPES: ReadonlySet<string> = new Set([
  '.html',
  '.css',
  '.js',
  '.mjs',
  '.json',
  '.svg',
  '.xml',
  '.txt',
  '.webmanifest',
  '.map',
]);
/** Files smaller than this go as they are: a few hundred bytes gain little and cost a header. */
export const PRECOMPRESS_MIN_BYTES = 1024;
/** The copies written beside a file, by the `Content-Encoding` they are sent with. */
export const COPY_SUFFIXES = { br: '.br', gzip: '.gz' } as const;

/** What one run wrote: how many files got copies, and the bytes before and after. */
export interface PrecompressReport {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

/** Whether a built file of this name and size gets compressed copies. */
export function shouldPrecompress(file: string, size: number): boolean {
  return PRECOMPRESSED_TYPES.has(path.extname(file).toLowerCase()) && size >= PRECOMPRESS_MIN_BYTES;
}

/**
 * Brotli at its best quality, told that the bytes are text of this size. The same bytes always give the same output.
 */
export function brotliCopy(bytes: Buffer): Buffer {
  return zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/** Gzip at level 9. Node writes no time or name into the gzip header, so the same bytes always give the same output. */
export function gzipCopy(bytes: Buffer): Buffer {
  return zlib.gzipSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION });
}

/** Every file under a directory, as sorted absolute paths. */
export function filesUnder(directory: string): string[] {
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Writes a copy beside its original with the original's modification time, or removes a stale one when it would not be
 * smaller.
 */
function writeCopy(file: string, copy: Buffer, originalSize: number, modifiedMs: number): number {
  if (copy.length >= originalSize) {
    fs.rmSync(file, { force: true });
    return 0;
  }
  fs.writeFileSync(file, copy);
  fs.utimesSync(file, modifiedMs / 1000, modifiedMs / 1000);
  return copy.length;
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of at least PRECOMPRESS_MIN_BYTES under `siteDir` (a copy
 * that would not be smaller is left out), and removes copies whose original is gone or too small. Same input, same
 * bytes.
 */
export function precompressSite(siteDir: string): PrecompressReport {
  const report: PrecompressReport = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const suffixes: string[] = Object.values(COPY_SUFFIXES);
  for (const file of filesUnder(siteDir)) {
    const suffix = suffixes.find((candidate) => file.endsWith(candidate));
    if (suffix) {
      // A copy left by an earlier run: it goes when its original no longer gets copies.
      const original = file.slice(0, -suffix.length);
      if (
        PRECOMPRESSED_TYPES.has(path.extname(original).toLowerCase()) &&
        !(fs.existsSync(original) && shouldPrecompress(original, fs.statSync(original).size))
      ) {
        fs.rmSync(file);
      }
      continue;
    }
    const stat = fs.statSync(file);
    if (!shouldPrecompress(file, stat.size)) continue;
    const bytes = fs.readFileSync(file);
    report.files++;
    report.bytes += bytes.length;
    report.brotliBytes += writeCopy(file + COPY_SUFFIXES.br, brotliCopy(bytes), bytes.length, stat.mtimeMs);
    report.gzipBytes += writeCopy(file + COPY_SUFFIXES.gzip, gzipCopy(bytes), bytes.length, stat.mtimeMs);
  }
  return report;
}

/** One line about a run, for the build log. */
export function describePrecompress(report: PrecompressReport): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return `Compressed copies of ${report.files} text files (${kb(report.bytes)}): brotli ${kb(report.brotliBytes)}, gzip ${kb(report.gzipBytes)}`;
}
