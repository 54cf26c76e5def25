// /upload-cape: the cape upload flow (PNG or GIF) with the 3D preview of cape and elytra.
import PlayerPreview from '../shared/PlayerPreview';
import { heldCape } from '../shared/texture-files';
import { CAPE_KIND } from './texture-kinds';
import { UploadPanel } from './UploadPanel';
import { useTextureUpload } from './useTextureUpload';

/** The cape upload island. */
export default function CapeUpload() {
  const upload = useTextureUpload(CAPE_KIND);
  const { state, saved, savedState, user } = upload;

  const animatedFile = state.held?.file.type === 'image/gif';
  const ownsAnimated = user?.premium?.animated === true;
  const notice =
    animatedFile && !ownsAnimated ? (
      <p role="note" className="rounded-lg border border-amber-500/50 bg-amber-500/10 px-4 py-3 text-sm text-amber-100">
        Animated capes are a <a href="/premium">premium feature</a>. Without it, other players see the first frame of
        your GIF.
      </p>
    ) : null;

  return (
    <UploadPanel
      kind={CAPE_KIND}
      noun={{ singular: 'cape', plural: false }}
      upload={upload}
      saved={saved.cape}
      notice={notice}
      preview={
        <PlayerPreview
          uuid={user?.uuid ?? null}
          cape={state.held ? heldCape(state.held) : saved.cape}
          ears={saved.ears}
          facing="back"
          turnToFacing={state.status === 'uploaded'}
          loading={savedState === 'loading'}
          elytraToggle
        />
      }
    />
  );
}
