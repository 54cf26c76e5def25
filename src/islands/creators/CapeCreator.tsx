// /gallery/cape-creator: a picture fitted onto a cape: scale, elytra, colour or auto colour.
import { useState } from 'react';
import { CreatorFrame } from './CreatorFrame';
import { ColourField, PicturePicker, ScaleSelect, Switch } from './controls';
import { uploadCreation } from './creator-api';
import { checkPicture, fileKey, PICTURE_TYPES } from './picture-rules';
import { useCreation } from './useCreation';

/** The image-to-cape creator. */
export default function CapeCreator() {
  const [file, setFile] = useState<File | null>(null);
  const [scale, setScale] = useState(2);
  const [colour, setColour] = useState('#3b3b3b');
  const [auto, setAuto] = useState(true);
  const [elytra, setElytra] = useState(false);
  const problem = file ? checkPicture(file, PICTURE_TYPES) : null;
  const color = auto ? 'auto' : colour.slice(1);
  const key = file && !problem ? [fileKey(file), scale, color, elytra].join('|') : null;
  const state = useCreation(
    key,
    (signal, onProgress) =>
      uploadCreation(
        'imageCape',
        { file: file! },
        { scale: String(scale), color, elytra: String(elytra) },
        signal,
        onProgress,
      ),
    'server-message',
  );
  return (
    <CreatorFrame
      title="Cape Creator"
      intro="Turn any picture into a cape: it is fitted onto the cape's outside and inside."
      state={state}
      fileName="cape"
      idleHint="Choose a picture to see your cape."
    >
      <PicturePicker
        label="Picture"
        accept=".png,.jpg,.jpeg,.gif,.webp"
        hint="PNG, JPEG, GIF or WebP up to 2 MB"
        problem={problem}
        onFile={setFile}
      />
      <ScaleSelect scale={scale} onScale={setScale} />
      <Switch label="Auto colour (the picture's average colour)" checked={auto} onChange={setAuto} />
      <ColourField label="Colour of the edges" colour={colour} onColour={setColour} disabled={auto} />
      <Switch label="Put the picture on the elytra too" checked={elytra} onChange={setElytra} />
    </CreatorFrame>
  );
}
