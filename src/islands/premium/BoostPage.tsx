// /premium/boost: three steps. Link the community account with a code the player sends
// the bot; boost the community server; choose the cosmetic the boost gives. Linked and boosting are polled every second
// until true; the cosmetic select works only when both are; "Cosmetic updated" shows 3 s. Paying premium holders can
// also get the community's premium role code.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import type { PremiumItem } from '../../lib/premium';
import { $user } from '../../lib/client/session';
import { ErrorDisplay } from '../shared/ErrorDisplay';

/** How often the page asks whether the account is linked and boosting. */
const POLL_MS = 1000;
/** How long "Cosmetic updated" shows. */
const UPDATED_MS = 3000;

/**
 * Polls a yes-or-no call every second while `active`, until it says yes (again after `version` moves); returns the last
 * answer, false while inactive.
 */
function usePolledFlag(call: 'boostLinked' | 'boostBoosting', active: boolean, version: number): boolean {
  const [flag, setFlag] = useState(false);
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer = 0;
    const ask = async () => {
      const answer = await apiCall(call).catch(() => ({ success: false }));
      if (stopped) return;
      setFlag(answer.success);
      if (!answer.success) timer = window.setTimeout(() => void ask(), POLL_MS);
    };
    void ask();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [call, active, version]);
  return active && flag;
}

/** One numbered step with its state. */
function Step({
  number,
  title,
  done,
  children,
}: {
  number: number;
  title: string;
  done: boolean;
  children: React.ReactNode;
}) {
  return (
    <li className="card" data-testid={`boost-step-${number}`}>
      <h2 className="flex items-center gap-3 text-xl font-extrabold">
        <span
          className={`grid h-8 w-8 place-items-center rounded-full text-sm ${done ? 'bg-green-600 text-white' : 'bg-ink-800 text-ink-200'}`}
          aria-hidden="true"
        >
          {done ? '✓' : number}
        </span>
        {title}
        {done && <span className="sr-only">(done)</span>}
      </h2>
      <div className="mt-3 text-ink-300">{children}</div>
    </li>
  );
}

/** A one-time code for the bot: a button that gets it, then the command to send with it. */
function OneTimeCode(props: {
  code: string | null;
  command: string;
  label: string;
  disabled: boolean;
  onGet: () => void;
  children: React.ReactNode;
}) {
  if (!props.code) {
    return (
      <button type="button" className="btn-primary" disabled={props.disabled} onClick={props.onGet}>
        {props.label}
      </button>
    );
  }
  return (
    <p role="status">
      Send{' '}
      <code className="rounded bg-ink-950 px-2 py-0.5 font-mono text-lg font-bold text-ink-100">
        {props.command} {props.code}
      </code>{' '}
      {props.children}
    </p>
  );
}

/** The boost page island. */
export default function BoostPage({ discordUrl }: { discordUrl: string }) {
  const user = useStore($user);
  const [version, setVersion] = useState(0);
  const linked = usePolledFlag('boostLinked', true, version);
  const boosting = usePolledFlag('boostBoosting', linked, version);
  const [linkCode, setLinkCode] = useState<string | null>(null);
  const [cosmetics, setCosmetics] = useState<Record<string, string>>({});
  const [cosmetic, setCosmetic] = useState('');
  const [updated, setUpdated] = useState(false);
  const [roleCode, setRoleCode] = useState<string | null>(null);
  const [confirmUnlink, setConfirmUnlink] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);

  useEffect(() => {
    apiCall('boostCosmetics').then(
      (answer) => setCosmetics(answer.cosmetics),
      () => undefined,
    );
    apiCall('boostCosmetic').then(
      (answer) => setCosmetic(answer.cosmetic ?? ''),
      () => undefined,
    );
  }, [version]);

  useEffect(() => {
    if (!updated) return;
    const timer = window.setTimeout(() => setUpdated(false), UPDATED_MS);
    return () => window.clearTimeout(timer);
  }, [updated]);

  /** Runs a call with the busy state and the error display. */
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    } finally {
      setBusy(false);
    }
  };

  const choose = (value: string) =>
    run(async () => {
      // The select lists the cosmetics GET /usable named; the server refuses any other.
      const answer = await apiCall('chooseBoostCosmetic', { body: { cosmetic: value as PremiumItem } });
      setCosmetic(answer.cosmetic ?? '');
      setUpdated(true);
    });

  const paidPremium = user?.premium && !user.premium.boost_only;

  return (
    <>
      <ErrorDisplay error={error} />
      <ol className="mt-6 grid gap-4">
        <Step number={1} title="Link your community account" done={linked}>
          {linked ? (
            <div className="flex flex-wrap items-center gap-3">
              <span className="font-semibold text-green-200">Your account is linked.</span>
              {confirmUnlink ? (
                <>
                  <button
                    type="button"
                    className="btn-danger px-3 py-1"
                    disabled={busy}
                    onClick={() =>
                      run(async () => {
                        await apiCall('boostUnlink');
                        setConfirmUnlink(false);
                        setLinkCode(null);
                        setVersion((count) => count + 1);
                      })
                    }
                  >
                    Confirm: unlink
                  </button>
                  <button type="button" className="btn-secondary px-3 py-1" onClick={() => setConfirmUnlink(false)}>
                    Cancel
                  </button>
                </>
              ) : (
                <button type="button" className="btn-secondary px-3 py-1" onClick={() => setConfirmUnlink(true)}>
                  Unlink
                </button>
              )}
            </div>
          ) : (
            <OneTimeCode
              code={linkCode}
              command="/link"
              label="Get a link code"
              disabled={busy}
              onGet={() => run(async () => setLinkCode((await apiCall('boostLinkCode')).code))}
            >
              to our bot in the {discordUrl ? <a href={discordUrl}>community chat</a> : 'community chat'} within 10
              minutes. This page notices the link by itself.
            </OneTimeCode>
          )}
        </Step>
        <Step number={2} title="Boost the community server" done={boosting}>
          {boosting ? (
            <span className="font-semibold text-green-200">Thank you for boosting!</span>
          ) : (
            <p>
              Boost our {discordUrl ? <a href={discordUrl}>community server</a> : 'community server'}.{' '}
              {linked ? 'This page notices the boost by itself.' : 'Link your account first.'}
            </p>
          )}
        </Step>
        <Step number={3} title="Choose your cosmetic" done={boosting && cosmetic !== ''}>
          <label htmlFor="boost-cosmetic" className="block">
            While you boost, you get one feature free.
          </label>
          <select
            id="boost-cosmetic"
            className="mt-2 w-full rounded-lg border border-ink-600 bg-ink-950 px-3 py-2 disabled:opacity-50 sm:w-72"
            disabled={!linked || !boosting || busy}
            value={cosmetic}
            onChange={(event) => void choose(event.target.value)}
          >
            <option value="" disabled>
              Choose a cosmetic
            </option>
            {Object.entries(cosmetics).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
          {updated && (
            <p role="status" className="mt-2 font-semibold text-green-200">
              Cosmetic updated
            </p>
          )}
        </Step>
      </ol>
      {paidPremium && (
        <section className="card mt-6" aria-labelledby="premium-role">
          <h2 id="premium-role" className="text-xl font-extrabold">
            The premium role
          </h2>
          <p className="mt-2 text-ink-300">
            Thank you for buying premium: claim the premium role in the community chat.
          </p>
          <div className="mt-3">
            <OneTimeCode
              code={roleCode}
              command="/role"
              label="Get a role code"
              disabled={busy}
              onGet={() => run(async () => setRoleCode((await apiCall('premiumRoleCode')).code))}
            >
              to our bot within a day.
            </OneTimeCode>
          </div>
        </section>
      )}
    </>
  );
}
