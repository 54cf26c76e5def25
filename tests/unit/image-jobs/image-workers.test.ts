// The image worker processes (server/image-jobs/worker-pool.ts): real work in a child process (the blocklist's hashes
// too), its refusals and errors, a lower CPU priority than the API, a worker that dies, and a job ended by its timeout.
import fs from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { refusalError } from '../../../server/http/errors.ts';
import { RefusedError } from '../../../src/lib/refusals.ts';
import { IMAGE_JOB_TIMEOUT_MESSAGE } from '../../../server/image-jobs/job-queue.ts';
import { ImageJobs, ImageWorkerPool } from '../../../server/textures/image-work/image-jobs.ts';
import { TextureRejected } from '../../../server/textures/pipeline/process.ts';
import { NO_PERCEPTUAL_HASH } from '../../../server/textures/pipeline/perceptual-hash.ts';
import { blobsDesign, designPng, frameColour, repeatedFrameGif, solidPng } from '../../../support/textures.ts';

/** The child processes of this process whose command line names the image worker. */
function workerPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker-process.ts');
      } catch {
        return false;
      }
    });
}

describe('ImageWorkerPool', () => {
  let pool: ImageWorkerPool;
  afterEach(() => pool.close());

  it('does image work in a child process at a lower CPU priority, and passes its results back', async () => {
    pool = new ImageWorkerPool(1);
    const cape = await solidPng(64, 32, frameColour(3));
    const result = await pool.run('cape', cape);
    expect(Buffer.isBuffer(result.still.bytes)).toBe(true);
    expect(await sharp(result.still.bytes).metadata()).toMatchObject({ width: 64, height: 32, format: 'png' });
    const [pid] = workerPids();
    expect(pid).toBeDefined();
    expect(os.getPriority(pid!)).toBeGreaterThan(os.getPriority());
  });

  it('gives an upload the blocklist probes of its still, and hashes a stored texture for the blocklist', async () => {
    pool = new ImageWorkerPool(1);
    const cape = await pool.run('cape', await designPng(64, 32, blobsDesign(1), 'cape'));
    const hash = await pool.run('perceptualHash', cape.still.bytes);
    expect(hash).toMatch(/^[0-7][0-9a-f]{15}$/);
    expect(cape.probes[0]).toBe(hash);
    expect((await pool.run('ears', await solidPng(14, 7, frameColour(2)))).probes).toEqual([NO_PERCEPTUAL_HASH]);
  });

  it("passes a refusal back as the upload's message, and other errors as errors", async () => {
    pool = new ImageWorkerPool(1);
    const refusal = pool.run('cape', Buffer.from('not an image at all'));
    await expect(refusal).rejects.toBeInstanceOf(TextureRejected);
    await expect(pool.run('textureMap', await solidPng(10, 10, frameColour(1)))).rejects.toThrow(
      /Cannot render texture map/,
    );
  });

  it('fails a job sent to a worker that has just died (no uncaught EPIPE), and the next job gets a new worker', async () => {
    pool = new ImageWorkerPool(1);
    const ears = await solidPng(14, 7, frameColour(10));
    await pool.run('ears', ears);
    const [first] = workerPids();
    process.kill(first!, 'SIGKILL');
    // Without yielding to the event loop: the worker is dead (a zombie) but the pool has not heard of its exit yet.
    while (!/\) Z /.test(fs.readFileSync(`/proc/${first}/stat`, 'utf8'))) {
      // busy wait
    }
    await expect(pool.run('ears', ears)).rejects.toThrow(/image worker stopped/);
    expect((await pool.run('ears', ears)).still.width).toBe(14);
  });

  it('fails the job of a worker that dies, and starts a new worker for the next job', async () => {
    pool = new ImageWorkerPool(1);
    const ears = await solidPng(14, 7, frameColour(9));
    await pool.run('ears', ears);
    const [first] = workerPids();
    const job = pool.run('ears', ears);
    process.kill(first!, 'SIGKILL');
    await expect(job).rejects.toThrow(/image worker stopped/);
    const again = await pool.run('ears', ears);
    expect(again.still.width).toBe(14);
    expect(workerPids()).not.toContain(first);
  });

  it('kills the worker of a job whose caller ends it, starts another at once, and the next job gets the new one', async () => {
    pool = new ImageWorkerPool(1);
    const ears = await solidPng(14, 7, frameColour(8));
    await pool.run('ears', ears);
    const [first] = workerPids();
    const controller = new AbortController();
    const job = pool.run('ears', ears, { signal: controller.signal });
    controller.abort(new Error('ended by the test'));
    await expect(job).rejects.toThrow('ended by the test');
    await expect.poll(() => workerPids()).not.toContain(first);
    expect(workerPids()).toHaveLength(1);
    expect((await pool.run('ears', ears)).still.width).toBe(14);
  });

  it("ends an image job that runs past the queue's timeout by killing its worker: the job fails with 503", async () => {
    pool = new ImageWorkerPool(1);
    const jobs = new ImageJobs(
      { concurrency: 1, smallSlots: 0, timeoutMs: 300 },
      { runner: (name, input, control) => pool.run(name, input, control) },
    );
    const ears = await solidPng(14, 7, frameColour(7));
    await pool.run('ears', ears); // the worker is started (its start is not the job's time)
    const [first] = workerPids();
    // 64 frames of 1024 x 1024, decoded twice (cape and elytra): well over a second of work.
    const gif = await repeatedFrameGif(1024, 1024, 64);
    const creation = jobs.run(
      'creation',
      {
        generator: 'animated',
        input: { gif, background: null, scale: 1, colour: { r: 0, g: 0, b: 0, a: 255 }, elytra: true },
      },
      'player',
    );
    const error = await creation.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(RefusedError);
    expect(refusalError((error as RefusedError).refusal)).toMatchObject({
      statusCode: 503,
      message: IMAGE_JOB_TIMEOUT_MESSAGE,
    });
    await expect.poll(() => workerPids()).not.toContain(first);
    expect((await pool.run('ears', ears)).still.width).toBe(14);
    expect(await jobs.run('ears', ears, 'player')).toMatchObject({ still: { width: 14 } });
  });

  it('refuses work once closed', async () => {
    pool = new ImageWorkerPool(1);
    pool.close();
    await expect(pool.run('ears', Buffer.alloc(1))).rejects.toThrow(/closed/);
  });
});
