// /gallery/ai-cape-creator: a prompt of at most 50 characters becomes a cape; the page names the
// image maker (an AI images service, or the built-in pattern generator) and shows the server's message on failure.
import { useEffect, useId, useState } from 'react';
import { apiCall, type ApiAnswer } from '../../lib/client/api';
import { AI_PROMPT_MAX, checkAiPrompt, cleanPrompt } from '../../lib/creator-rules';
import { CreatorFrame } from './CreatorFrame';
import { Field, INPUT_CLASS } from './controls';
import { CreationFailed, type Creation } from './creator-api';
import { useCreation } from './useCreation';

/** Asks for a cape from a prompt, as JSON. */
async function requestPromptCape(prompt: string, signal: AbortSignal): Promise<Creation> {
  try {
    return await apiCall('aiCape', { body: { prompt }, signal });
  } catch (error) {
    if (signal.aborted) throw error;
    const failure = error as { status?: number; data?: unknown };
    throw new CreationFailed(failure.status ?? 0, failure.data);
  }
}

/** The AI cape creator. */
export default function AiCapeCreator() {
  const [prompt, setPrompt] = useState('');
  // The prompt sent, with a count so that asking again for the same words is a new request.
  const [asked, setAsked] = useState<{ prompt: string; count: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [maker, setMaker] = useState<ApiAnswer<'aiProvider'> | null>(null);
  const hintId = useId();
  const state = useCreation(
    asked ? `${asked.count}:${asked.prompt}` : null,
    (signal) => requestPromptCape(asked!.prompt, signal),
    'server-message',
  );

  useEffect(() => {
    apiCall('aiProvider')
      .then(setMaker)
      .catch(() => setMaker(null));
  }, []);

  const submit = () => {
    const message = checkAiPrompt(prompt);
    setProblem(message);
    if (!message) setAsked((previous) => ({ prompt: prompt.trim(), count: (previous?.count ?? 0) + 1 }));
  };

  return (
    <CreatorFrame
      title="AI Cape Creator"
      intro={
        maker?.builtIn ? (
          <>
            Describe a cape and our built-in pattern generator draws it from your words: colours, shapes and text in
            quotes.
          </>
        ) : (
          <>Describe a cape and an AI draws it for you.</>
        )
      }
      state={state}
      fileName="ai-cape"
      idleHint="Describe your cape and press Create."
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Field
          label="Prompt"
          htmlFor="ai-prompt"
          hint={
            <span id={hintId}>
              {[...prompt].length}/{AI_PROMPT_MAX} characters. For example: gold star on navy, or red and white stripes
              text:GG
            </span>
          }
        >
          <input
            id="ai-prompt"
            value={prompt}
            maxLength={AI_PROMPT_MAX}
            onChange={(event) => setPrompt(cleanPrompt(event.target.value))}
            aria-describedby={hintId}
            aria-invalid={problem !== null}
            autoComplete="off"
            className={INPUT_CLASS}
          />
        </Field>
        {problem && (
          <p role="alert" className="text-sm text-red-300">
            {problem}
          </p>
        )}
        <button type="submit" className="btn-primary self-start" disabled={state.status === 'loading'}>
          {state.status === 'loading' ? 'Creating…' : 'Create'}
        </button>
        {maker && (
          <p className="text-xs text-ink-400" data-testid="ai-maker">
            Made by: {maker.name}
            {maker.builtIn ? ' (no AI service is set up on this site)' : ''}
          </p>
        )}
      </form>
    </CreatorFrame>
  );
}
