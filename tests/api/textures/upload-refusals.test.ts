// API tests for POST/DELETE /api/upload-cape and /api/upload-ears refusing: file rule rejections, no session, no XSRF
// header.
import { describe, expect, it } from 'vitest';
import {
  NO_FILE_MESSAGE,
  textureMessages,
  wrongCapeSizeMessage,
  wrongSizeMessage,
} from '../../../src/lib/texture-rules.ts';
import { backends } from '../../../support/backends.ts';
import { loginNewUser, newBrowser } from '../../helpers/server.ts';
import { uploadImagesForFile, uploadSuite } from '../../helpers/upload.ts';

const { images, capes, ears } = uploadImagesForFile();

describe.each(backends)('cape and ears upload on $name', (backend) => {
  const { suite, fetchTexture, profile, textureRows, expectRefused, uploadOk } = uploadSuite(backend);

  describe('rejections', () => {
    it.each([
      ['a text file as cape', 'cape', 'text', 'text/plain', textureMessages.capeType],
      ['a text file sent as image/png', 'cape', 'text', 'image/png', textureMessages.capeType],
      ['a broken PNG', 'cape', 'invalidPng', 'image/png', textureMessages.invalidImage],
      ['a 64 x 33 cape', 'cape', 'wrongDimensions', 'image/png', wrongCapeSizeMessage({ width: 64, height: 33 })],
      ['a square GIF cape', 'cape', 'squareGif', 'image/gif', wrongCapeSizeMessage({ width: 64, height: 64 })],
      ['a 4096 x 2048 cape', 'cape', 'tooLarge', 'image/png', textureMessages.capeTooLarge],
      ['a PNG header claiming 4096 x 2048', 'cape', 'tooLargeHeaderOnly', 'image/png', textureMessages.capeTooLarge],
      ['a 65-frame GIF', 'cape', 'bombGif', 'image/gif', textureMessages.capeTooManyFrames],
      ['GIF ears', 'ears', 'earsGif', 'image/gif', textureMessages.earsType],
      ['text ears', 'ears', 'text', 'image/png', textureMessages.earsType],
      ['14 x 10 ears', 'ears', 'ears14x10', 'image/png', wrongSizeMessage('ears', { width: 14, height: 10 })],
      ['15 x 7 ears', 'ears', 'ears15x7', 'image/png', wrongSizeMessage('ears', { width: 15, height: 7 })],
      ['broken PNG ears', 'ears', 'earsInvalid', 'image/png', textureMessages.invalidImage],
    ])('refuses %s with 422 and the exact message, storing nothing', async (_name, kind, image, type, msg) => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const rowsBefore = await textureRows();
      await expectRefused(await jar.upload(`/api/upload-${kind}`, images[image]!, { type }), msg);
      expect(await textureRows()).toBe(rowsBefore);
      expect(await profile(uuid)).toMatchObject({ cape_url: null, animated_cape_url: null, ear_url: null });
    });

    it.each([
      ['a cape of 500,001 bytes', 'cape', 'capeTooBig', textureMessages.capeTooBig],
      ['ears of 10,001 bytes', 'ears', 'earsTooBig', textureMessages.earsTooBig],
    ])('refuses %s with 413 and the exact message, storing nothing', async (_name, kind, image, msg) => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const rowsBefore = await textureRows();
      await expectRefused(await jar.upload(`/api/upload-${kind}`, images[image]!), msg, 413);
      expect(await textureRows()).toBe(rowsBefore);
      expect(await profile(uuid)).toMatchObject({ cape_url: null, animated_cape_url: null, ear_url: null });
    });

    it('keeps the current cape when a later upload is refused', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const url = await uploadOk(jar, 'cape', capes[0]!);
      await expectRefused(
        await jar.upload('/api/upload-cape', images.bombGif!, { type: 'image/gif' }),
        textureMessages.capeTooManyFrames,
      );
      expect((await profile(uuid)).cape_url).toBe(url);
      expect((await fetchTexture(url)).status).toBe(200);
    });

    it('refuses a request without a file field with 422', async () => {
      const { jar } = await loginNewUser(suite.server);
      const fieldsOnly = new FormData();
      fieldsOnly.append('title', 'no file here');
      for (const response of [
        await jar.sendForm('POST', '/api/upload-cape', fieldsOnly),
        await jar.sendForm('POST', '/api/upload-cape', new FormData()),
        await jar.upload('/api/upload-cape', capes[1]!, { field: 'image' }),
        await jar.upload('/api/upload-ears', ears[0]!, { field: 'cape' }),
      ]) {
        await expectRefused(response, NO_FILE_MESSAGE);
      }
    });

    it('refuses a body that is not multipart with a clear 4xx, never a 500', async () => {
      const { jar } = await loginNewUser(suite.server);
      const json = await jar.post('/api/upload-cape', { file: 'data:image/png;base64,AAAA' });
      await expectRefused(json, NO_FILE_MESSAGE);
      const raw = await jar.request('POST', '/api/upload-ears', undefined, { 'content-type': 'image/png' });
      expect([406, 415, 422]).toContain(raw.status);
      const body = (await raw.json()) as { msg?: string; error?: string };
      expect(body.msg ?? body.error).toBeTruthy();
    });

    it('refuses a malformed multipart body with a 4xx, never a 500', async () => {
      const { jar } = await loginNewUser(suite.server);
      const cases = {
        'no boundary': { type: 'multipart/form-data', body: 'garbage' },
        'boundary never found': { type: 'multipart/form-data; boundary=XYZ', body: 'garbage without a boundary' },
        'cut inside the file part': {
          type: 'multipart/form-data; boundary=XYZ',
          body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="cape.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
        },
      };
      for (const [name, { type, body }] of Object.entries(cases)) {
        const sent = await fetch(`${suite.server.url}/api/upload-cape`, {
          method: 'POST',
          headers: {
            'content-type': type,
            cookie: `XSRF-TOKEN=${jar.cookie('XSRF-TOKEN')}; session=${jar.cookie('session')}`,
            'x-xsrf-token': decodeURIComponent(jar.cookie('XSRF-TOKEN')!),
          },
          body,
        });
        expect(sent.status, `${name}: ${await sent.text()}`).toBeGreaterThanOrEqual(400);
        expect(sent.status, name).toBeLessThan(500);
      }
    });
  });

  describe('authentication', () => {
    it('answers 401 without a session and stores nothing', async () => {
      const jar = await newBrowser(suite.server);
      const rowsBefore = await textureRows();
      expect((await jar.upload('/api/upload-cape', capes[2]!)).status).toBe(401);
      expect((await jar.upload('/api/upload-ears', ears[1]!)).status).toBe(401);
      expect((await jar.request('DELETE', '/api/upload-cape')).status).toBe(401);
      expect((await jar.request('DELETE', '/api/upload-ears')).status).toBe(401);
      expect(await textureRows()).toBe(rowsBefore);
    });

    it('answers 419 without the x-xsrf-token header or with a wrong one, and changes nothing', async () => {
      const { jar, uuid } = await loginNewUser(suite.server);
      const url = await uploadOk(jar, 'cape', capes[3]!);
      const rowsBefore = await textureRows();
      expect((await jar.upload('/api/upload-cape', capes[4]!, { xsrf: false })).status).toBe(419);
      expect((await jar.upload('/api/upload-cape', capes[4]!, { headers: { 'x-xsrf-token': 'wrong' } })).status).toBe(
        419,
      );
      expect((await jar.upload('/api/upload-ears', ears[2]!, { xsrf: false })).status).toBe(419);
      const cookie = `XSRF-TOKEN=${jar.cookie('XSRF-TOKEN')}; session=${jar.cookie('session')}`;
      expect(
        (await fetch(`${suite.server.url}/api/upload-cape`, { method: 'DELETE', headers: { cookie } })).status,
      ).toBe(419);
      expect(
        (await fetch(`${suite.server.url}/api/upload-ears`, { method: 'DELETE', headers: { cookie } })).status,
      ).toBe(419);
      expect(await textureRows()).toBe(rowsBefore);
      expect((await profile(uuid)).cape_url).toBe(url);
    });
  });
});
