// The mod API bench's background load: players uploading the heaviest animated cape and downloading an animated gallery
// item over and over, through the real HTTP API, while wrk measures /profile and /textures beside them.
import { issueLoginCode } from '../server/auth/login-codes.ts';
import { openDatabase } from '../server/db/database.ts';
import { animatedGif } from './gif-fixture.ts';

/** A logged-in player's cookies and XSRF token. */
export interface Session {
  cookie: string;
  xsrf: string;
}

/** The value of each Set-Cookie of a response, by name. */
function cookiesOf(response: Response): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(';');
    const at = pair!.indexOf('=');
    cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
  }
  return cookies;
}

/** Logs a seeded player in with a fresh login code, as the site does (XSRF cookie first, then the code). */
export async function logIn(baseUrl: string, databaseFile: string, uuid: string): Promise<Session> {
  const db = openDatabase(`sqlite:${databaseFile}`);
  const code = await issueLoginCode(db, uuid);
  await db.destroy();
  const xsrf = cookiesOf(await fetch(`${baseUrl}/api/home`)).get('XSRF-TOKEN')!;
  const response = await fetch(`${baseUrl}/api/account/checkauth`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: `XSRF-TOKEN=${xsrf}`,
      'x-xsrf-token': decodeURIComponent(xsrf),
    },
    body: JSON.stringify({ code, ref: '/' }),
  });
  const session = cookiesOf(response).get('session');
  if (response.status !== 200 || !session)
    throw new Error(`bench login failed: ${response.status} ${await response.text()}`);
  return { cookie: `XSRF-TOKEN=${xsrf}; session=${session}`, xsrf: decodeURIComponent(xsrf) };
}

/** Posts a file as multipart form data (with extra fields) for a session; resolves with the status and the answer. */
export async function postFile(
  baseUrl: string,
  session: Session,
  urlPath: string,
  file: Buffer,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file)], { type: 'image/gif' }), 'cape.gif');
  const response = await fetch(`${baseUrl}${urlPath}`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf },
    body: form,
  });
  return { status: response.status, body: await response.text() };
}

/** What the background load did while it ran. */
export interface HeavyLoadReport {
  uploads: number;
  downloads: number;
  failures: string[];
}

/**
 * Prepares `workers` players (a third download, the rest upload) and returns a function that keeps them busy until the
 * promise it is given settles. Each uploader sends the 64-frame 2048×1024 GIF again and again; each downloader fetches
 * an animated gallery item's GIF.
 */
export async function prepareHeavyLoad(baseUrl: string, databaseFile: string, uuids: string[], workers: number) {
  const gif = await animatedGif(2048, 64);
  const sessions = await Promise.all(uuids.slice(0, workers).map((uuid) => logIn(baseUrl, databaseFile, uuid)));
  const shared = await postFile(baseUrl, sessions[0]!, '/api/gallery/new', gif, {
    title: 'Heavy bench',
    tags: '["abstract"]',
  });
  const hash = (JSON.parse(shared.body) as { hash?: string }).hash;
  if (!hash) throw new Error(`bench gallery upload failed: ${shared.status} ${shared.body}`);
  const downloaders = Math.max(1, Math.round(workers / 3));
  return {
    gifBytes: gif.length,
    /** Runs the workers until `until` settles. */
    async run(until: Promise<unknown>): Promise<HeavyLoadReport> {
      const report: HeavyLoadReport = { uploads: 0, downloads: 0, failures: [] };
      let done = false;
      void until.finally(() => (done = true));
      const worker = async (session: Session, download: boolean) => {
        while (!done) {
          if (download) {
            const response = await fetch(`${baseUrl}/api/gallery/${hash}/download`, {
              headers: { cookie: session.cookie },
            });
            const bytes = (await response.arrayBuffer()).byteLength;
            if (response.status === 200 && bytes > 0) report.downloads += 1;
            else report.failures.push(`download ${response.status}`);
          } else {
            const answer = await postFile(baseUrl, session, '/api/upload-cape', gif);
            if (answer.status === 200) report.uploads += 1;
            else report.failures.push(`upload ${answer.status} ${answer.body.slice(0, 80)}`);
          }
        }
      };
      await Promise.all(sessions.map((session, i) => worker(session, i < downloaders)));
      return report;
    },
  };
}
