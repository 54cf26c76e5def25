// /upload-cape: the cape upload flow (PNG or GIF) with the 3D preview of cape and elytra.
import PlayerPreview from './PlayerPreview';
import { CAPE_KIND } from './texture-kinds';
import { heldCape } from './textures';
import { UploadPanel } from './UploadPanel';
import { useTextureUpload } from './useTextureUpload';

/** The cape upload island. */
export default function CapeUpload() {
  const upload = useTextureUpload(CAPE_KIND);
  const { state, user } = upload;

  const animatedFile = state.held?.file.type === 'image/gif';
  const ownsAnimated = user?.premium?.animated === true;
  const notice =
    animatedFile && !ownsAnimated ? (
      <p role="note" className="rounded-lg border border-amber-500/50 bg-amber-500/10 px-4 py-3 text-sm text-amber-100">
        Animated capes are a <a href="/premium">premium feature</a>. Without it, other players see the first frame of your GIF.
      </p>
    ) : null;

  return (
    <UploadPanel
      kind={CAPE_KIND}
      noun={{ singular: 'cape', plural: false }}
      upload={upload}
      saved={state.saved.cape}
      notice={notice}
      preview={
        <PlayerPreview
          uuid={user?.uuid ?? null}
          cape={state.held ? heldCape(state.held) : state.saved.cape}
          ears={state.saved.ears}
          facing="back"
          loading={state.savedState === 'loading'}
          elytraToggle
        />
      }
    />
  );
}
