// /gallery/head-capes: a player's face on a cape: username, helmet layer, red/green/blue/brightness sliders; a failure
// stops the loading silently, except that a player service that cannot be reached is named.
import { useState } from 'react';
import { cleanUsername } from '../../lib/creator-rules';
import { CreatorFrame } from './CreatorFrame';
import { Field, INPUT_CLASS, Slider, Switch } from './controls';
import { requestCreation } from './creator-api';
import { apiPath } from '../../lib/api-calls';
import { useCreation } from './useCreation';

/** How long the page waits after the last change before it asks (typing and sliding send one request, not dozens). */
const SETTLE_MS = 300;

/** The head cape creator. */
export default function HeadCapes() {
  const [username, setUsername] = useState('');
  const [helmet, setHelmet] = useState(true);
  const [sliders, setSliders] = useState({ red: 0, green: 0, blue: 0, brightness: 0 });
  const path = apiPath('headCape', { username, ...sliders, helmetOverlay: helmet });
  const state = useCreation(username ? path : null, (signal) => requestCreation(path, signal), 'silent', SETTLE_MS);
  const slider = (name: keyof typeof sliders, label: string) => (
    <Slider
      label={label}
      value={sliders[name]}
      onValue={(value) => setSliders((previous) => ({ ...previous, [name]: value }))}
    />
  );
  return (
    <CreatorFrame
      title="Head Capes"
      intro="Wear any player's face on your cape."
      state={state}
      fileName={`${username || 'head'}-cape`}
      idleHint="Type a username to see their head cape."
    >
      <Field label="Username" htmlFor="head-username" hint="Letters, digits and underscores, up to 16">
        <input
          id="head-username"
          value={username}
          onChange={(event) => setUsername(cleanUsername(event.target.value))}
          autoComplete="off"
          spellCheck={false}
          placeholder="Notch"
          className={INPUT_CLASS}
        />
      </Field>
      <Switch label="Show the helmet layer" checked={helmet} onChange={setHelmet} />
      {slider('red', 'Red')}
      {slider('green', 'Green')}
      {slider('blue', 'Blue')}
      {slider('brightness', 'Brightness')}
    </CreatorFrame>
  );
}
