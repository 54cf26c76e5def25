// The note an upload answer can carry: what the server changed to make the texture fit (an animation scaled down or
// cut).

/** What the server changed to make the upload fit (an animation scaled down or cut), when it changed anything. */
export function UploadNotice({ notice }: { notice: string | null }) {
  if (!notice) return null;
  return (
    <p
      className="mt-3 rounded-lg border border-amber-400/50 bg-amber-400/10 px-4 py-3 text-sm text-amber-100"
      data-testid="upload-notice"
    >
      {notice}
    </p>
  );
}
