// 2D views of a texture: the checkerboard image, and the picked file with its name and details (upload pages and
// gallery upload).
import { Fragment } from 'react';
import type { HeldTexture } from './texture-files';

/** A pixel-sharp 2D view of a texture on a checkerboard. */
export function TextureImage({ url, alt, strip }: { url: string; alt: string; strip?: boolean }) {
  return (
    <div className="grid aspect-[2/1] w-full max-w-[14rem] shrink-0 sm:w-44 place-items-center overflow-hidden rounded-lg border border-ink-700 bg-[length:16px_16px] bg-[conic-gradient(var(--color-ink-800)_25%,var(--color-ink-700)_0_50%,var(--color-ink-800)_0_75%,var(--color-ink-700)_0)]">
      <img
        src={url}
        alt={alt}
        className={`h-full w-full [image-rendering:pixelated] ${strip ? 'object-cover object-top' : 'object-contain'}`}
        data-testid="texture-2d-preview"
      />
    </div>
  );
}

/** One line of a picked file's details, with the label screen readers hear before it. */
export interface FileDetail {
  label: string;
  text: string;
}

/** The picked file: its 2D view, its name and one line for each detail. */
export function PickedFile({ held, alt, details }: { held: HeldTexture; alt: string; details: FileDetail[] }) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <TextureImage url={held.url} alt={alt} />
      <dl className="min-w-0 flex-1 text-sm">
        <dt className="sr-only">File</dt>
        <dd className="truncate font-semibold text-ink-100" title={held.file.name}>
          {held.file.name}
        </dd>
        {details.map(({ label, text }) => (
          <Fragment key={label}>
            <dt className="sr-only">{label}</dt>
            <dd className="text-ink-300">{text}</dd>
          </Fragment>
        ))}
      </dl>
    </div>
  );
}
