// API tests for boosting and the chat-community bot's API, on both databases: the player's link code, the bot binding
// it, boosting giving the chosen cosmetic for free (and taking it back when the boost ends, but never a paid feature),
// the premium role code for paying players only, the bot's key, rate limit and audit rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../../support/backends.ts';
import { startPaypalStandIn, type PaypalStandIn } from '../../helpers/paypal.ts';
import { loginNewUser, newBrowser, serverForSuite, type LoggedIn } from '../../helpers/server.ts';
import { frameColour, solidPng } from '../../../support/textures.ts';
import { modProfile } from '../../helpers/mod-profile.ts';

const BOT_KEY = 'bot-key-for-tests';
const MERCHANT = 'payments@cloakroom.example';
let member = 100_000;

describe.each(backends)('boost and the bot on $name', (backend) => {
  const env: Record<string, string> = {
    DISCORD_BOT_KEY: BOT_KEY,
    PAYPAL_EMAIL: MERCHANT,
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    BOT_CALLS_PER_MINUTE: '200',
  };
  let paypal: PaypalStandIn;
  beforeAll(async () => {
    paypal = await startPaypalStandIn();
    env.PAYPAL_IPN_VERIFY_URL = paypal.url;
  });
  afterAll(() => paypal.close());
  const suite = serverForSuite(backend, env);

  /** Calls the bot API with a key (the right one by default). */
  const bot = (method: 'GET' | 'POST', path: string, body?: unknown, key = BOT_KEY) =>
    fetch(`${suite.server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const linked = async (player: LoggedIn) =>
    (await (await player.jar.get('/api/premium/boost/discord/linked')).json()).success as boolean;
  const boosting = async (player: LoggedIn) =>
    (await (await player.jar.get('/api/premium/boost/discord/boosting')).json()).success as boolean;
  const profile = (uuid: string) => modProfile(suite.server.url, uuid);
  /** A player wearing a cape, linked to a new member id through the bot; returns the player and the member id. */
  async function linkedPlayer() {
    const player = await loginNewUser(suite.server);
    expect(
      (await player.jar.upload('/api/upload-cape', await solidPng(64, 32, frameColour(member % 200)))).status,
    ).toBe(200);
    const { code } = (await (await player.jar.post('/api/premium/boost/discord/generate')).json()) as { code: string };
    const discordId = String(member++);
    const bound = await bot('POST', '/api/bot/link', { code, discordId });
    expect(await bound.json()).toEqual({ success: true, uuid: player.uuid, username: player.username });
    return { player, discordId };
  }
  const pay = (uuid: string, item: string) =>
    paypal.notify(
      `${suite.server.url}/api/premium/payment`,
      paypal.issue({
        payment_status: 'Completed',
        txn_id: `T${member++}`,
        receiver_email: MERCHANT,
        mc_gross: '4.99',
        mc_currency: 'GBP',
        custom: `${uuid}:${item}`,
      }),
    );

  it('refuses the bot API without the right key, and the boost calls without a session', async () => {
    for (const key of ['', 'wrong-key']) {
      expect((await bot('GET', '/api/bot/links', undefined, key)).status).toBe(401);
      expect((await bot('POST', '/api/bot/link', { code: 'ABCDEFGH', discordId: '123456' }, key)).status).toBe(401);
    }
    const visitor = await newBrowser(suite.server);
    for (const path of ['linked', 'boosting', 'usable', 'cosmetic'])
      expect((await visitor.get(`/api/premium/boost/discord/${path}`)).status).toBe(401);
    expect((await visitor.post('/api/premium/boost/discord/generate')).status).toBe(401);
    expect((await visitor.post('/api/premium/discord/generate')).status).toBe(401);
  });

  it('links through the bot with a one-time code; a wrong or used code is refused; the link is audited', async () => {
    const player = await loginNewUser(suite.server);
    expect(await linked(player)).toBe(false);
    const { code } = await (await player.jar.post('/api/premium/boost/discord/generate')).json();
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect((await bot('POST', '/api/bot/link', { code: 'ZZZZZZZZ', discordId: '555555' })).status).toBe(404);
    expect((await bot('POST', '/api/bot/link', { code: 'bad', discordId: '555555' })).status).toBe(422);
    expect((await bot('POST', '/api/bot/link', { code, discordId: '555555' })).status).toBe(200);
    expect(await linked(player)).toBe(true);
    expect(await boosting(player)).toBe(false);
    expect((await bot('POST', '/api/bot/link', { code, discordId: '555556' })).status).toBe(404);
    const audit = await suite.server.db
      .selectFrom('admin_audit')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      action: 'BOT_LINK',
      admin_name: 'Discord bot',
      target_uuid: player.uuid,
      detail: 'member 555555',
    });
  });

  it('gives the chosen cosmetic while the member boosts, and takes it back when the boost ends', async () => {
    const { player, discordId } = await linkedPlayer();
    expect(await (await player.jar.get('/api/premium/boost/discord/usable')).json()).toEqual({
      cosmetics: { animated: 'Animated cape', glint: 'Cape glint', dinnerbone: 'Dinnerbone' },
    });
    const early = await player.jar.post('/api/premium/boost/discord/cosmetic', { cosmetic: 'glint' });
    expect(early.status).toBe(403);
    expect((await early.json()).error).toBe('Link your community account and boost the server first.');

    expect((await bot('POST', '/api/bot/boosting', { discordId, boosting: true })).status).toBe(200);
    expect(await boosting(player)).toBe(true);
    expect(await (await player.jar.post('/api/premium/boost/discord/cosmetic', { cosmetic: 'glint' })).json()).toEqual({
      cosmetic: 'glint',
    });
    expect(await (await player.jar.get('/api/premium/boost/discord/cosmetic')).json()).toEqual({ cosmetic: 'glint' });
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true });
    expect((await (await player.jar.get('/api/user')).json()).premium).toMatchObject({ glint: true, boost_only: true });
    // A boost-only premium does not come with the premium role.
    const role = await player.jar.post('/api/premium/discord/generate');
    expect(role.status).toBe(403);
    expect((await role.json()).error).toBe('Premium from boosting does not come with the premium role.');

    // Another cosmetic swaps the free one.
    await player.jar.post('/api/premium/boost/discord/cosmetic', { cosmetic: 'dinnerbone' });
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: false, upsideDown: true });

    expect((await bot('POST', '/api/bot/boosting', { discordId, boosting: false })).status).toBe(200);
    expect(await boosting(player)).toBe(false);
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: false, upsideDown: false });
    expect((await (await player.jar.get('/api/user')).json()).premium).toBeNull();
    expect((await bot('POST', '/api/bot/boosting', { discordId: '999999999', boosting: true })).status).toBe(404);
  });

  it('never takes back a paid feature when a boost ends or the account is unlinked', async () => {
    const { player, discordId } = await linkedPlayer();
    expect(await pay(player.uuid, 'glint')).toBe(200);
    await bot('POST', '/api/bot/boosting', { discordId, boosting: true });
    await player.jar.post('/api/premium/boost/discord/cosmetic', { cosmetic: 'glint' });
    await bot('POST', '/api/bot/boosting', { discordId, boosting: false });
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true });
    await bot('POST', '/api/bot/boosting', { discordId, boosting: true });
    await player.jar.post('/api/premium/boost/discord/cosmetic', { cosmetic: 'dinnerbone' });
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true, upsideDown: true });
    expect((await (await player.jar.get('/api/user')).json()).premium).toMatchObject({ boost_only: false });

    expect((await player.jar.post('/api/premium/boost/discord/remove')).status).toBe(200);
    expect(await linked(player)).toBe(false);
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true, upsideDown: false });
    expect((await player.jar.post('/api/premium/boost/discord/remove')).status).toBe(404);
  });

  it('never takes back what a moderator gave when a boost ends, even a feature the boost gave first', async () => {
    const admin = await loginNewUser(suite.server, undefined, { admin: true });
    const { player, discordId } = await linkedPlayer();
    expect((await bot('POST', '/api/bot/boosting', { discordId, boosting: true })).status).toBe(200);
    await player.jar.post('/api/premium/boost/discord/cosmetic', { cosmetic: 'glint' });
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true });
    expect((await admin.jar.post('/api/admin/user/profile', { uuid: player.uuid, capeGlint: true })).status).toBe(200);
    expect((await bot('POST', '/api/bot/boosting', { discordId, boosting: false })).status).toBe(200);
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true });
    expect((await (await player.jar.get('/api/user')).json()).premium).toMatchObject({
      glint: true,
      boost_only: false,
    });
    expect((await player.jar.post('/api/premium/boost/discord/remove')).status).toBe(200);
    expect(await profile(player.uuid)).toMatchObject({ capeGlint: true });
  });

  it('gives paying players a one-time premium role code the bot claims once', async () => {
    const nobody = await loginNewUser(suite.server);
    expect((await nobody.jar.post('/api/premium/discord/generate')).status).toBe(403);
    const payer = await loginNewUser(suite.server);
    expect(await pay(payer.uuid, 'animated')).toBe(200);
    const { code } = await (await payer.jar.post('/api/premium/discord/generate')).json();
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(await (await bot('POST', '/api/bot/role', { code, discordId: '777777' })).json()).toEqual({
      success: true,
      uuid: payer.uuid,
      username: payer.username,
    });
    expect((await bot('POST', '/api/bot/role', { code, discordId: '777778' })).status).toBe(404);
  });

  it('lists linked members in pages for the re-check, and unlinks a member (the boost cosmetic ends)', async () => {
    const first = await linkedPlayer();
    const second = await linkedPlayer();
    await bot('POST', '/api/bot/boosting', { discordId: second.discordId, boosting: true });
    await second.player.jar.post('/api/premium/boost/discord/cosmetic', { cosmetic: 'dinnerbone' });
    const members: Array<{ discordId: string; uuid: string; boosting: boolean }> = [];
    let after = '';
    for (;;) {
      const page = (await (await bot('GET', `/api/bot/links?limit=2&after=${after}`)).json()) as {
        data: typeof members;
        next: string | null;
      };
      members.push(...page.data);
      if (!page.next) break;
      after = page.next;
    }
    expect(members.map((entry) => entry.discordId)).toEqual([...members.map((entry) => entry.discordId)].sort());
    expect(members).toContainEqual({
      discordId: first.discordId,
      uuid: first.player.uuid,
      username: first.player.username,
      boosting: false,
    });
    expect(members).toContainEqual({
      discordId: second.discordId,
      uuid: second.player.uuid,
      username: second.player.username,
      boosting: true,
    });

    expect((await bot('POST', '/api/bot/unlink', { discordId: second.discordId })).status).toBe(200);
    expect(await linked(second.player)).toBe(false);
    expect(await profile(second.player.uuid)).toMatchObject({ upsideDown: false });
    expect((await bot('POST', '/api/bot/unlink', { discordId: second.discordId })).status).toBe(404);
  });

  it('counts only the bot: calls without a valid key are refused per address on their own counter, and the bot is still answered', async () => {
    const answers: Array<{ status: number; error: string }> = [];
    for (let call = 0; call < 620; call++) {
      const answer = await bot('GET', '/api/bot/links?limit=1', undefined, call % 2 ? '' : 'wrong-key');
      answers.push({ status: answer.status, error: ((await answer.json()) as { error: string }).error });
    }
    const answer = await bot('GET', '/api/bot/links?limit=1');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: expect.any(Array) });
    // The first test's refusals count in the same minute, so up to 30 (the default limit per address) are answered 401.
    const refused = answers.findIndex((entry) => entry.status === 429);
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThanOrEqual(30);
    expect(answers.slice(0, refused)).toEqual(
      Array(refused).fill({ status: 401, error: 'A valid API key is required.' }),
    );
    expect(answers.slice(refused)).toEqual(
      Array(620 - refused).fill({ status: 429, error: 'Too many calls without a valid API key. Wait a minute.' }),
    );
  });

  it('rate-limits the bot API across all its calls', async () => {
    let status = 200;
    for (let call = 0; call < 260 && status !== 429; call++)
      status = (await bot('GET', '/api/bot/links?limit=1')).status;
    expect(status).toBe(429);
  });
});
