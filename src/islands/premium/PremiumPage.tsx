// /premium: the premium features with their price and, for a logged-in player, their state (owned and on or off, or a
// Buy button that posts the PayPal checkout form, or goes to the card checkout); visitors get a Login link.
// /premium/success: "Payment Successful", a progress bar rising 5% a second, then the stored user is refreshed and the
// page returns to /premium.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { describeApiError, errorBody, type ErrorDisplay as ErrorDisplayValue } from '../../lib/client/api-errors';
import { formatPrice, PREMIUM_FEATURES, PURCHASES_UNAVAILABLE, type PremiumItem } from '../../lib/premium';
import { $user, storeUser } from '../../lib/client/session';
import { ErrorDisplay } from '../shared/ErrorDisplay';

/** The features that switch on and off, and the call that switches each. */
const TOGGLE_CALLS = { glint: 'toggleGlint', dinnerbone: 'toggleDinnerbone' } as const;
type ToggledItem = keyof typeof TOGGLE_CALLS;

/** The alert when a checkout cannot start. */
const CHECKOUT_FAILED = 'Something went wrong! Please refresh!';

/** Posts the PayPal Standard checkout form (amount, currency, custom, return, notify_url) for one feature. */
function submitCheckout(init: ApiAnswer<'premiumInit'>, item: PremiumItem, uuid: string, siteName: string): void {
  const fields: Record<string, string> = {
    cmd: '_xclick',
    business: init.paypalEmail,
    item_name: `${siteName} ${PREMIUM_FEATURES[item].name}`,
    amount: init.prices[item]!,
    currency_code: init.currency,
    custom: `${uuid}:${item}`,
    return: init.returnUrl,
    notify_url: init.notifyUrl,
    no_shipping: '1',
  };
  const form = document.createElement('form');
  form.method = 'post';
  form.action = init.paypalUrl;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

/** "Payment Successful" and its progress: +5% a second, then the refreshed user and back to /premium. */
function PaymentSuccess() {
  const [progress, setProgress] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setProgress((value) => Math.min(100, value + 5)), 1000);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    if (progress < 100) return;
    void apiCall('currentUser')
      .then(storeUser, () => undefined)
      .finally(() => location.assign('/premium'));
  }, [progress]);
  return (
    <section className="card mx-auto mt-6 max-w-xl text-center" aria-labelledby="payment-success">
      <h2 id="payment-success" className="text-2xl font-extrabold text-green-300">
        Payment Successful
      </h2>
      <p className="mt-2 text-ink-300">Thank you! Your feature is being switched on.</p>
      <div
        className="mt-4 h-3 overflow-hidden rounded-full bg-ink-800"
        role="progressbar"
        aria-label="Finishing your purchase"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
      >
        <div className="h-full bg-green-500 transition-[width]" style={{ width: `${progress}%` }} />
      </div>
    </section>
  );
}

/** The premium page island. */
export default function PremiumPage({
  siteName,
  supportEmail,
  discordUrl,
}: {
  siteName: string;
  supportEmail: string;
  discordUrl: string;
}) {
  const user = useStore($user);
  const [success] = useState(() => /\/premium\/success\/?$/.test(location.pathname));
  const [state, setState] = useState<ApiAnswer<'premiumState'> | null>(null);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  const [busy, setBusy] = useState<PremiumItem | null>(null);

  useEffect(() => {
    apiCall('premiumState').then(setState, (failure: unknown) => setError(describeApiError(errorBody(failure))));
  }, [user?.uuid]);

  /** Starts a checkout for a feature (`open` leaves the page for the provider); a failure shows an alert. */
  const checkout = async (item: PremiumItem, open: (uuid: string) => Promise<void>) => {
    if (!user) return;
    setBusy(item);
    try {
      await open(user.uuid);
    } catch {
      setBusy(null);
      window.alert(CHECKOUT_FAILED);
    }
  };
  const canBuy = Boolean(state && (state.providers.paypal || state.providers.card));
  const buy = (item: PremiumItem) =>
    checkout(item, async (uuid) => submitCheckout(await apiCall('premiumInit'), item, uuid, siteName));
  const buyByCard = (item: PremiumItem) =>
    checkout(item, async (uuid) => {
      location.assign((await apiCall('paymentIntent', { body: { uuid, item } })).url);
    });

  const toggle = async (item: ToggledItem, enabled: boolean) => {
    setBusy(item);
    setError(null);
    try {
      const answer = await apiCall(TOGGLE_CALLS[item], { body: { enabled } });
      setState(
        (current) =>
          current && {
            ...current,
            items: current.items.map((entry) => (entry.key === item ? { ...entry, enabled: answer.enabled } : entry)),
          },
      );
    } catch (failure) {
      setError(describeApiError(errorBody(failure)));
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      {success && <PaymentSuccess />}
      <ErrorDisplay error={error} />
      {state && !canBuy && (
        <p className="card mt-6 text-center text-ink-200" role="status">
          {PURCHASES_UNAVAILABLE}
        </p>
      )}
      <ul className="mt-6 grid gap-4 md:grid-cols-3" aria-busy={!state && !error}>
        {(state?.items ?? []).map((entry) => {
          const feature = PREMIUM_FEATURES[entry.key];
          return (
            <li key={entry.key} className="card flex flex-col gap-3" data-testid={`premium-${entry.key}`}>
              <h2 className="text-xl font-extrabold">{feature.name}</h2>
              <p className="flex-1 text-ink-300">{feature.description}</p>
              <p className="text-2xl font-extrabold">
                {formatPrice(entry.price, state!.currency)}{' '}
                <span className="text-sm font-normal text-ink-400">one-time</span>
              </p>
              {!user && canBuy && (
                <a className="btn-primary text-center" href="/account/login?ref=/premium">
                  Login to buy
                </a>
              )}
              {user && !entry.owned && canBuy && (
                <div className="flex flex-col gap-2">
                  {state!.providers.paypal && (
                    <button
                      type="button"
                      className="btn-primary"
                      disabled={busy !== null}
                      onClick={() => buy(entry.key)}
                    >
                      {busy === entry.key ? 'Opening checkout…' : `Buy ${feature.name} with PayPal`}
                    </button>
                  )}
                  {state!.providers.card && (
                    <button
                      type="button"
                      className="btn-secondary"
                      disabled={busy !== null}
                      onClick={() => buyByCard(entry.key)}
                    >
                      {`Buy ${feature.name} by card`}
                    </button>
                  )}
                </div>
              )}
              {user && entry.owned && feature.toggles && (
                <div className="flex items-center justify-between gap-3 rounded-lg border border-green-500/40 bg-green-500/10 px-4 py-2">
                  <span className="font-semibold text-green-200">✓ Owned</span>
                  <button
                    type="button"
                    role="switch"
                    aria-checked={entry.enabled}
                    aria-label={feature.name}
                    disabled={busy !== null}
                    className={`rounded-full border px-4 py-1 text-sm font-bold ${entry.enabled ? 'border-green-400 bg-green-600 text-white' : 'border-ink-500 bg-ink-900 text-ink-200'}`}
                    onClick={() => toggle(entry.key as ToggledItem, !entry.enabled)}
                  >
                    {entry.enabled ? 'On' : 'Off'}
                  </button>
                </div>
              )}
              {user && entry.owned && !feature.toggles && (
                <p className="rounded-lg border border-green-500/40 bg-green-500/10 px-4 py-2 text-center font-semibold text-green-200">
                  ✓ Owned · <a href="/upload-cape">upload an animated cape</a>
                </p>
              )}
            </li>
          );
        })}
        {!state &&
          !error &&
          [0, 1, 2].map((index) => <li key={index} className="card h-64 animate-pulse" aria-hidden="true" />)}
      </ul>
      <p className="mt-6 text-sm text-ink-300">
        All purchases are final.
        {supportEmail && (
          <>
            {' '}
            Questions about a payment? Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
          </>
        )}
      </p>
      {discordUrl && (
        <p className="mt-2 text-sm text-ink-300">
          Boosting our community server gives you one feature free while you boost:{' '}
          <a href="/premium/boost">Premium Boost</a>.
        </p>
      )}
    </>
  );
}
