// /gallery/banner-capes: a banner from the LivzMC or Planet Minecraft editor on a cape: the URL
// box with the host rule and its message, top and bottom colours (red and green), alignment (scale, top, middle,
// bottom); a failed request stops the loading silently.
import { useId, useState } from 'react';
import { bannerIdFromUrl, bannerServiceFromUrl, unsupportedBannerMessage } from '../../lib/banner-url';
import { BANNER_ALIGNMENTS, type BannerAlignment } from '../../lib/creator-rules';
import { CreatorFrame } from './CreatorFrame';
import { ColourField, Field, INPUT_CLASS } from './controls';
import { requestCreation } from './creator-api';
import { apiPath } from '../../lib/api-calls';
import { useCreation } from './useCreation';

/** The message for a URL of a supported editor whose banner id is missing or not letters and digits. */
const BAD_ID_MESSAGE = 'That link has no banner code. Copy the link the editor gives you for your banner.';

/** What the URL box holds: nothing, a usable banner, or a message. */
function readBannerUrl(url: string): { service: string; id: string } | { problem: string } | null {
  if (url.trim() === '') return null;
  const service = bannerServiceFromUrl(url);
  if (!service) return { problem: unsupportedBannerMessage(url) };
  const id = bannerIdFromUrl(url);
  return id ? { service, id } : { problem: BAD_ID_MESSAGE };
}

/** The banner cape creator. */
export default function BannerCapes() {
  const [url, setUrl] = useState('');
  const [top, setTop] = useState('#ff0000');
  const [bottom, setBottom] = useState('#00ff00');
  const [alignment, setAlignment] = useState<BannerAlignment>('scale');
  const problemId = useId();
  const banner = readBannerUrl(url);
  const path =
    banner && 'id' in banner
      ? apiPath('bannerCape', {
          service: banner.service,
          bannerId: banner.id,
          top: top.slice(1),
          bottom: bottom.slice(1),
          alignment,
        })
      : null;
  const state = useCreation(path, (signal) => requestCreation(path!, signal), 'silent', 300);
  const problem = banner && 'problem' in banner ? banner.problem : null;
  return (
    <CreatorFrame
      title="Banner Capes"
      intro={
        <>
          Design a banner on{' '}
          <a className="underline" href="https://www.livzmc.net/banner/" target="_blank" rel="noopener noreferrer">
            LivzMC
          </a>{' '}
          or{' '}
          <a
            className="underline"
            href="https://www.planetminecraft.com/banner/"
            target="_blank"
            rel="noopener noreferrer"
          >
            Planet Minecraft
          </a>
          , then paste its link here.
        </>
      }
      state={state}
      fileName="banner-cape"
      idleHint="Paste a banner link to see your cape."
    >
      <Field
        label="Banner link"
        htmlFor="banner-url"
        hint={problem ? undefined : 'For example https://www.planetminecraft.com/banner/?b=g2v'}
      >
        <input
          id="banner-url"
          type="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem ? problemId : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder="https://www.livzmc.net/banner/?=…"
          className={INPUT_CLASS}
        />
        {problem && (
          <p id={problemId} role="alert" className="mt-1 text-sm text-red-300">
            {problem}
          </p>
        )}
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <ColourField label="Top colour" colour={top} onColour={setTop} />
        <ColourField label="Bottom colour" colour={bottom} onColour={setBottom} />
      </div>
      <fieldset>
        <legend className="mb-1.5 text-sm font-semibold">Alignment</legend>
        <div className="flex flex-wrap gap-4">
          {BANNER_ALIGNMENTS.map((value) => (
            <label key={value} className="flex cursor-pointer items-center gap-2 text-sm capitalize">
              <input
                type="radio"
                name="banner-alignment"
                value={value}
                checked={alignment === value}
                onChange={() => setAlignment(value)}
              />
              {value}
            </label>
          ))}
        </div>
      </fieldset>
    </CreatorFrame>
  );
}
