// /upload-ears: the ears upload flow (14 × 7 PNG) with the 3D preview of the ears on the player's head.
import PlayerPreview from '../shared/PlayerPreview';
import { EARS_KIND } from './texture-kinds';
import { UploadPanel } from './UploadPanel';
import { useTextureUpload } from './useTextureUpload';

/** The ears upload island. */
export default function EarsUpload() {
  const upload = useTextureUpload(EARS_KIND);
  const { state, saved, savedState, user } = upload;

  return (
    <UploadPanel
      kind={EARS_KIND}
      noun={{ singular: 'ears', plural: true }}
      upload={upload}
      saved={saved.ears}
      preview={
        <PlayerPreview
          uuid={user?.uuid ?? null}
          cape={saved.cape}
          ears={state.held ? state.held.url : saved.ears}
          facing="front"
          turnToFacing={state.status === 'uploaded'}
          zoom={0.7}
          loading={savedState === 'loading'}
        />
      }
    />
  );
}
