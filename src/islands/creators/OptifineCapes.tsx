// /gallery/optifine-capes: OptiFine-style capes: a design, custom colours, or a player's OptiFine
// cape looked up 500 ms after the last key; a failure says "That user doesn't have a cape.", except that a cape server
// that cannot be reached is named.
import { useState } from 'react';
import { cleanUsername, creatorMessages, OPTIFINE_DESIGNS, OPTIFINE_LOOKUP_DEBOUNCE_MS } from '../../lib/creator-rules';
import { CreatorFrame } from './CreatorFrame';
import { ColourField, Field, INPUT_CLASS } from './controls';
import { requestCreation } from './creator-api';
import { apiPath } from '../../lib/api-calls';
import { useCreation } from './useCreation';

/** The dropdown's choices: the designs, custom colours and username lookup. */
type Choice = (typeof OPTIFINE_DESIGNS)[number] | 'custom' | 'username';

/** The dropdown's label of a choice. */
function choiceLabel(choice: Choice): string {
  if (choice === 'username') return 'Username lookup';
  return choice.charAt(0).toUpperCase() + choice.slice(1);
}

/** The OptiFine cape creator. */
export default function OptifineCapes() {
  const [choice, setChoice] = useState<Choice>('standard');
  const [username, setUsername] = useState('');
  const [colours, setColours] = useState({ top: '#8b1a1a', bottom: '#3f0b0b', text: '#f1f1f1', shadow: '#5c5c5c' });
  const path =
    choice === 'username'
      ? username
        ? apiPath('optifineCape', { name: username })
        : null
      : choice === 'custom'
        ? apiPath('customOptifineCape', {
            top: colours.top.slice(1),
            bottom: colours.bottom.slice(1),
            text: colours.text.slice(1),
            shadow: colours.shadow.slice(1),
          })
        : apiPath('optifineCape', { name: choice });
  const state = useCreation(
    path,
    (signal) => requestCreation(path!, signal),
    { message: creatorMessages.optifineNoCape },
    choice === 'username' ? OPTIFINE_LOOKUP_DEBOUNCE_MS : 0,
  );
  const colour = (name: keyof typeof colours, label: string) => (
    <ColourField
      label={label}
      colour={colours[name]}
      onColour={(value) => setColours((previous) => ({ ...previous, [name]: value }))}
    />
  );
  return (
    <CreatorFrame
      title="OptiFine Capes"
      intro="Make a cape in the OptiFine style, or bring over a player's OptiFine cape."
      state={state}
      fileName={choice === 'username' ? `${username || 'optifine'}-cape` : `optifine-${choice}`}
      idleHint="Type a username to look up their OptiFine cape."
    >
      <Field label="Design" htmlFor="optifine-design">
        <select
          id="optifine-design"
          value={choice}
          onChange={(event) => setChoice(event.target.value as Choice)}
          className={INPUT_CLASS}
        >
          {[...OPTIFINE_DESIGNS, 'custom' as const, 'username' as const].map((value) => (
            <option key={value} value={value}>
              {choiceLabel(value)}
            </option>
          ))}
        </select>
      </Field>
      {choice === 'username' && (
        <Field label="Username" htmlFor="optifine-username" hint="Looked up half a second after you stop typing">
          <input
            id="optifine-username"
            value={username}
            onChange={(event) => setUsername(cleanUsername(event.target.value))}
            autoComplete="off"
            spellCheck={false}
            className={INPUT_CLASS}
          />
        </Field>
      )}
      {choice === 'custom' && (
        <div className="grid grid-cols-2 gap-4">
          {colour('top', 'Top')}
          {colour('bottom', 'Bottom')}
          {colour('text', 'Text')}
          {colour('shadow', 'Shadow')}
        </div>
      )}
    </CreatorFrame>
  );
}
