// /gallery/animated-cape-creator: a GIF over a PNG background becomes an animated cape.
import { useState } from 'react';
import { creatorMessages } from '../../lib/creator-rules';
import { CreatorFrame } from './CreatorFrame';
import { ColourField, PicturePicker, ScaleSelect, Switch } from './controls';
import { uploadCreation } from './creator-api';
import { checkPicture, fileKey } from './picture-rules';
import { useCreation } from './useCreation';

/** The animated cape creator. */
export default function AnimatedCapeCreator() {
  const [gif, setGif] = useState<File | null>(null);
  const [background, setBackground] = useState<File | null>(null);
  const [scale, setScale] = useState(2);
  const [colour, setColour] = useState('#202020');
  const [elytra, setElytra] = useState(false);
  const gifProblem = gif ? checkPicture(gif, ['image/gif'], creatorMessages.animatedType) : null;
  const backgroundProblem = background ? checkPicture(background, ['image/png'], creatorMessages.backgroundType) : null;
  const key =
    gif && !gifProblem && !backgroundProblem
      ? [fileKey(gif), fileKey(background), scale, colour, elytra].join('|')
      : null;
  const state = useCreation(
    key,
    (signal, onProgress) =>
      uploadCreation(
        'animatedCape',
        background ? { file: gif!, background } : { file: gif! },
        { scale: String(scale), color: colour.slice(1), elytra: String(elytra) },
        signal,
        onProgress,
      ),
    'server-message',
  );
  return (
    <CreatorFrame
      title="Animated Cape Creator"
      intro="Put a GIF on your cape: each frame shows for 100 ms, over a background of your choice."
      state={state}
      fileName="animated-cape"
      idleHint="Choose a GIF to see your animated cape."
    >
      <PicturePicker
        label="Animation (GIF)"
        accept=".gif"
        hint="A GIF of up to 64 frames, 2 MB at most"
        problem={gifProblem}
        onFile={setGif}
      />
      <PicturePicker
        label="Background (PNG, optional)"
        accept=".png"
        hint="Shown behind the animation and on the inside"
        problem={backgroundProblem}
        onFile={setBackground}
      />
      <ScaleSelect scale={scale} onScale={setScale} />
      <ColourField label="Colour of the edges" colour={colour} onColour={setColour} />
      <Switch label="Animate the elytra too" checked={elytra} onChange={setElytra} />
    </CreatorFrame>
  );
}
