// /device: the player enters the code a launcher or mod shows (filled in from ?user_code= when the app's link or QR
// code brought them), checks the app's name, the code and what it asks to do, and approves or denies; then goes back
// to the app. A visitor is told which app the code is for and asked to log in, and comes back with the code filled in.
// A wrong, expired or used code is told in words.
import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import {
  describeApiError,
  errorBody,
  errorStatus,
  type ErrorDisplay as ErrorDisplayValue,
} from '../../lib/client/api-errors';
import { APP_SCOPES } from '../../lib/app-scopes';
import { $user } from '../../lib/client/session';
import { deviceMessages, isUserCode, normalizeUserCode, userCodeInput } from '../../lib/device-codes';
import { loginUrlFor } from '../../lib/routes';
import { ErrorDisplay } from '../shared/ErrorDisplay';
import { useClientValue, useHydrated } from '../shared/useClientValue';

/** A sign-in as the page shows it before the player decides. */
type SignIn = ApiAnswer<'deviceSignIn'>;

/** Where the player is: typing the code, asked to log in (a visitor), deciding on the sign-in it names, or done. */
type Step =
  | { kind: 'enter' }
  | { kind: 'login'; appName: string; userCode: string }
  | { kind: 'decide'; signIn: SignIn }
  | { kind: 'done'; appName: string; decision: 'approved' | 'denied' };

/** The player's two choices, in the order the page offers them. */
const DECISIONS = [
  { decision: 'approved', label: 'Approve', className: 'btn-primary' },
  { decision: 'denied', label: 'Deny', className: 'btn-secondary' },
] as const;

/** The code the address brings (?user_code=), as the field shows it; empty when there is none. */
function codeFromAddress(): string {
  return userCodeInput(new URLSearchParams(location.search).get('user_code') ?? '');
}

/** The address of the page with a code filled in, where a login returns to. */
function pageWithCode(code: string): string {
  return `/device?user_code=${encodeURIComponent(userCodeInput(code))}`;
}

/**
 * Whether a player is logged in (the stored user), following a logout by a refused call; the built page is drawn as
 * for a player.
 */
function useLoggedIn(): boolean {
  return useSyncExternalStore(
    (changed) => $user.listen(changed),
    () => $user.get() !== null,
    () => true,
  );
}

/** Where looking a code up leads: the next step, or what is wrong with the code. */
type Outcome = { step: Step } | { error: ErrorDisplayValue };

/**
 * Looks a code up: a player is shown the sign-in it names, to decide on; a visitor (or a player whose session ended)
 * which app it is for, and is asked to log in.
 */
async function stepForCode(code: string): Promise<Outcome> {
  if ($user.get()) {
    try {
      return { step: { kind: 'decide', signIn: await apiCall('deviceSignIn', { query: { code } }) } };
    } catch (failure) {
      if (errorStatus(failure) !== 401) return { error: describeApiError(errorBody(failure)) };
      // The session had ended (the call forgot the stored user): log in first, as a visitor does.
    }
  }
  try {
    const { appName } = await apiCall('deviceApp', { query: { code } });
    return { step: { kind: 'login', appName, userCode: userCodeInput(code) } };
  } catch (failure) {
    return { error: describeApiError(errorBody(failure)) };
  }
}

/** The scopes a sign-in asks for, in words. */
function ScopeList({ signIn }: { signIn: SignIn }) {
  return (
    <ul className="mt-3 list-disc space-y-1 pl-6" data-testid="device-scopes">
      {signIn.scopes.map((scope) => (
        <li key={scope}>{APP_SCOPES[scope]}</li>
      ))}
    </ul>
  );
}

/** The /device island. */
export default function DeviceSignIn() {
  const given = useClientValue(codeFromAddress, '');
  const [typed, setTyped] = useState<string | null>(null);
  const code = typed ?? given;
  const [step, setStep] = useState<Step>({ kind: 'enter' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorDisplayValue | null>(null);
  // A code from the address is looked up before anything is drawn, so the form does not flash before the next step.
  const codeFromLink = isUserCode(normalizeUserCode(given));
  const [linkLookedUp, setLinkLookedUp] = useState(false);
  const ready = useHydrated();
  const loggedIn = useLoggedIn();
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step.kind);

  /** Shows where a code led: its next step, or what is wrong with it. */
  const show = (outcome: Outcome) => {
    if ('error' in outcome) setError(outcome.error);
    else setStep(outcome.step);
  };

  // A code from the app's link is looked up at once; the player still checks it against the app before approving.
  useEffect(() => {
    if (!codeFromLink) return;
    void stepForCode(given).then((outcome) => {
      show(outcome);
      setLinkLookedUp(true);
    });
  }, [given, codeFromLink]);

  // Each new step moves the focus to its heading, so keyboard and screen reader users start reading there.
  useEffect(() => {
    if (shownStep.current === step.kind) return;
    shownStep.current = step.kind;
    heading.current?.focus();
  }, [step.kind]);

  const lookUp = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!isUserCode(normalizeUserCode(code))) {
      setError({ kind: 'message', message: deviceMessages.incomplete });
      return;
    }
    setBusy(true);
    setError(null);
    show(await stepForCode(code));
    setBusy(false);
  };

  const decide = async (signIn: SignIn, decision: 'approved' | 'denied') => {
    setBusy(true);
    setError(null);
    try {
      const answer = await apiCall(decision === 'approved' ? 'approveDevice' : 'denyDevice', {
        body: { code: signIn.userCode },
      });
      setStep({ kind: 'done', appName: answer.appName, decision: answer.decision });
    } catch (failure) {
      if (errorStatus(failure) === 401) {
        // The session ended meanwhile: the player is asked to log in and comes back to the same code.
        setStep({ kind: 'enter' });
        show(await stepForCode(signIn.userCode));
      } else {
        // The code expired or was used meanwhile: back to the code, with why.
        setError(describeApiError(errorBody(failure)));
        setStep({ kind: 'enter' });
      }
    }
    setBusy(false);
  };

  const startOver = () => {
    setTyped('');
    setError(null);
    setStep({ kind: 'enter' });
  };

  const title = 'text-3xl font-extrabold focus:outline-none';

  if (step.kind === 'done') {
    const approved = step.decision === 'approved';
    return (
      <section className="card mx-auto max-w-lg" aria-labelledby="device-title" data-testid="device-done">
        <h1 id="device-title" ref={heading} tabIndex={-1} className={title}>
          {approved ? `${step.appName} is connected` : `${step.appName} was not connected`}
        </h1>
        <p role="status" className="mt-4 text-ink-300">
          {approved
            ? `Go back to ${step.appName}: it finishes signing in within a few seconds. You can disconnect it at any time under Connected Apps.`
            : `${step.appName} cannot use your account. You can close this page.`}
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <a href="/account/apps" className="btn-secondary">
            Connected Apps
          </a>
          <button type="button" className="btn-secondary" onClick={startOver}>
            Enter another code
          </button>
        </div>
      </section>
    );
  }

  if (step.kind === 'login') {
    return (
      <section className="card mx-auto max-w-lg" aria-labelledby="device-title" data-testid="device-login">
        <h1 id="device-title" ref={heading} tabIndex={-1} className={`${title} break-words`}>
          Log in to connect {step.appName}
        </h1>
        <p className="mt-4 text-ink-300">
          {step.appName} shows this code and asks to connect to your account. Log in first: you come back here to see
          what it asks to do, and approve or deny it.
        </p>
        <p
          className="mt-3 rounded-lg bg-ink-800 px-4 py-3 text-center font-mono text-3xl tracking-widest text-ink-100"
          data-testid="device-code"
        >
          {step.userCode}
        </p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <a href={loginUrlFor(pageWithCode(step.userCode))} className="btn-primary py-3 sm:flex-1">
            Log in
          </a>
          <button type="button" className="btn-secondary py-3 sm:flex-1" onClick={startOver}>
            Enter another code
          </button>
        </div>
      </section>
    );
  }

  if (step.kind === 'decide') {
    const { signIn } = step;
    return (
      <section className="card mx-auto max-w-lg" aria-labelledby="device-title" data-testid="device-decide">
        <h1 id="device-title" ref={heading} tabIndex={-1} className={`${title} break-words`}>
          Connect {signIn.appName}?
        </h1>
        <p className="mt-4 text-ink-300">
          Check that {signIn.appName} shows this code. If it does not, or you did not just sign in to it, deny.
        </p>
        <p
          className="mt-3 rounded-lg bg-ink-800 px-4 py-3 text-center font-mono text-3xl tracking-widest text-ink-100"
          data-testid="device-code"
        >
          {signIn.userCode}
        </p>
        <h2 className="mt-6 text-lg font-bold">{signIn.appName} asks to:</h2>
        <ScopeList signIn={signIn} />
        <p className="mt-4 text-sm text-ink-300">It never sees your password or your game account.</p>
        <div className="mt-6 flex flex-wrap gap-3">
          {DECISIONS.map(({ decision, label, className }) => (
            <button
              key={decision}
              type="button"
              className={`${className} flex-1 py-3`}
              disabled={busy}
              onClick={() => decide(signIn, decision)}
            >
              {label}
            </button>
          ))}
        </div>
        <ErrorDisplay error={error} />
      </section>
    );
  }

  if (codeFromLink && !linkLookedUp) {
    return (
      <div
        className="card mx-auto h-64 max-w-lg animate-pulse"
        role="status"
        aria-busy="true"
        aria-label="Looking up the code"
        data-testid="device-looking-up"
      />
    );
  }

  return (
    <form className="card mx-auto max-w-lg" onSubmit={lookUp} noValidate aria-labelledby="device-title">
      <h1 id="device-title" ref={heading} tabIndex={-1} className={title}>
        Connect an app
      </h1>
      <p className="mt-4 text-ink-300">
        A launcher or mod that signs you in shows a code of 8 letters. Type it here to see what the app asks to do
        before you approve it.
      </p>
      <label htmlFor="device-code-input" className="mt-6 block text-sm font-semibold">
        Code
      </label>
      <input
        id="device-code-input"
        name="user_code"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={code}
        onChange={(event) => setTyped(userCodeInput(event.target.value))}
        placeholder="BCDF-GHJK"
        aria-describedby="device-code-hint"
        className="mt-2 w-full rounded-lg border border-ink-600 bg-ink-800 px-4 py-3 text-center font-mono text-3xl tracking-widest text-ink-100 uppercase outline-none focus:border-brand-400"
        autoFocus
      />
      <p id="device-code-hint" className="mt-2 text-xs text-ink-300">
        Letters only; the dash is added for you.
      </p>
      <button type="submit" className="btn-primary mt-4 w-full py-3" disabled={busy || !ready}>
        {busy ? 'Checking…' : 'Continue'}
      </button>
      <ErrorDisplay error={error} />
      {!loggedIn && (
        <p className="mt-4 text-sm text-ink-300" data-testid="device-visitor">
          You are not logged in: you log in before you approve an app.{' '}
          <a href={loginUrlFor(code ? pageWithCode(code) : '/device')}>Log in now</a>
        </p>
      )}
    </form>
  );
}
