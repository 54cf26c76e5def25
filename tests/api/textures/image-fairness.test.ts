// Image work shared fairly between players: one account flooding the animated cape creator gets 429 beyond its share
// (jobs at once, then seconds of image work a minute), and another player's small cape upload is answered while the
// flood's work still runs; on SQLite and PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_JOBS_PER_PLAYER_MESSAGE, IMAGE_WORK_BUDGET_MESSAGE } from '../../../server/image-jobs/job-queue.ts';
import { frameColour, repeatedFrameGif, solidPng } from '../../../support/textures.ts';
import { backends } from '../../../support/backends.ts';
import { waitFor } from '../../../support/wait.ts';
import type { CookieJar } from '../../helpers/cookie-jar.ts';
import { loginNewUser, serverForSuite } from '../../helpers/server.ts';

/** Parallel requests the flooder sends. */
const FLOOD = 6;

/**
 * A GIF whose 64 frames of 1448 x 1448 take the image worker about half a second to make into a cape (0.45 s on a quiet
 * machine, more on a busy one): two of them are well beyond the flooder's half second of image work, and far beyond the
 * few milliseconds of a 64 x 32 upload and its GIF.
 */
const bigGif = await repeatedFrameGif(1448, 1448, 64);

describe.each(backends)('image work shared fairly on $name', (backend) => {
  const suite = serverForSuite(backend, {
    IMAGE_JOB_CONCURRENCY: '1',
    IMAGE_JOBS_PER_PLAYER: '2',
    IMAGE_WORK_SECONDS_PER_MINUTE: '0.5',
    CREATOR_CALLS_PER_MINUTE: '1000',
    TEXTURE_UPLOADS_PER_10_MINUTES: '1000',
  });
  let flooder: CookieJar;
  let player: CookieJar;

  beforeAll(async () => {
    ({ jar: flooder } = await loginNewUser(suite.server));
    ({ jar: player } = await loginNewUser(suite.server));
  });

  /** The flooder's animated creator request, in a colour of its own so the creation cache never answers it. */
  const flood = (colour: number) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bigGif)], { type: 'image/gif' }), 'flood.gif');
    for (const [name, value] of Object.entries({
      scale: '1',
      color: colour.toString(16).padStart(6, '0'),
      elytra: 'false',
    }))
      form.append(name, value);
    return flooder.sendForm('POST', '/api/gallery/animated-cape-creator', form);
  };

  /** The other player's 64 x 32 cape upload. */
  const uploadCape = async () => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await solidPng(64, 32, frameColour(5)))], { type: 'image/png' }),
      'cape.png',
    );
    return player.sendForm('POST', '/api/upload-cape', form);
  };

  it("answers a small cape upload while one account's flood of big GIFs is still being made, and refuses the flood beyond its share", async () => {
    const order: string[] = [];
    const flooding = Array.from({ length: FLOOD }, (_, index) =>
      flood(0x100000 + index).then(async (response) => {
        order.push(`flood ${response.status}`);
        return { status: response.status, error: ((await response.json()) as { error?: string }).error };
      }),
    );
    // The upload goes out once the flood's requests are all in (the flooder's 429s come back at once).
    await waitFor(() => order.filter((entry) => entry === 'flood 429').length === FLOOD - 2, "the flood's refusals");
    const upload = await uploadCape();
    order.push(`upload ${upload.status}`);
    const answers = await Promise.all(flooding);

    expect(upload.status).toBe(200);
    // The small upload did not wait for the flood's work: it was answered before the flood's capes from the creators.
    expect(order.indexOf('upload 200')).toBeLessThan(order.indexOf('flood 200'));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.error)).toEqual(
      Array.from({ length: FLOOD - 2 }, () => IMAGE_JOBS_PER_PLAYER_MESSAGE),
    );

    // The two capes made took more than the flooder's half second of image work a minute: the next one is refused,
    // while the other player, whose share is untouched, is still answered.
    const over = await flood(0x200000);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: string }).error).toBe(IMAGE_WORK_BUDGET_MESSAGE);
    expect((await uploadCape()).status).toBe(200);
  });
});
