// The texture intake: every texture that becomes a player's cape or ears, a gallery item or a creator's cape comes in
// here and takes the same steps: its image job (charged to the player), the blocklist check, storing, then setting the
// player's slot (setPlayerTextures) or adding the gallery item (addGalleryItem), and the upload metrics. Every step
// answers its refusal as a plain value, and so does the intake: the route answers it once, with sendRefusal.
import type { Refusal, Refused } from '../../../src/lib/refusals.ts';
import { isCapeStrip } from '../../../src/lib/texture-layout.ts';
import type { CreationRequest } from '../generators/index.ts';
import type { ImageWorkResult } from '../image-work/catalogue.ts';
import type { ImageJobs } from '../image-work/image-jobs.ts';
import type { PlayerSlot } from '../library/player-columns.ts';
import { Blocklist } from '../library/blocklist.ts';
import type { WardrobeOrigin } from '../library/wardrobe-items.ts';
import { readUpload, type EncodedTexture } from '../pipeline/process.ts';
import { addGalleryItem, type AddItem } from './add-gallery-item.ts';
import { setPlayerTextures, type PlayerTexturesContext } from './set-player-textures.ts';

/** What an upload is for, as the metrics count it. */
export type UploadKind = PlayerSlot | 'gallery';

/** Where uploads are counted, by kind: `ok`, or the refusal. */
export interface UploadCounter {
  countUpload(kind: UploadKind, result: 'ok' | Refusal): void;
}

/**
 * What the intake works with: the database, the stored textures, the change bus, the image jobs, the wardrobe's size
 * and the metrics.
 */
export interface IntakeContext extends PlayerTexturesContext {
  imageJobs: ImageJobs;
  uploads: UploadCounter;
}

/**
 * A stored texture to put on a player: the picture (an animation's strip, else the still), its stored first frame when
 * there is one, and where it comes from (null for an item of the wardrobe, which is there already).
 */
export interface StoredWear {
  picture: EncodedTexture;
  still?: EncodedTexture;
  origin: WardrobeOrigin | null;
}

/** What putting a texture on a player came to: the hash of the still the player shows. */
export interface Worn {
  stillHash: string;
}

/** A cape or ears upload the player now wears, with the note for the player. */
export interface WornUpload extends Worn {
  notice: string | null;
}

/** A gallery upload made an item (or found it there already): the item's hash, and the note for the player. */
export interface SharedUpload {
  hash: string;
  created: boolean;
  notice: string | null;
}

/** A creator's cape, stored but not yet worn or shared: its texture (an animation's strip, else the still). */
export interface MadeCape {
  texture: EncodedTexture;
  stillHash: string;
  notice: string | null;
}

/** The image work that processes an upload, by what it is for. */
const UPLOAD_WORK = { cape: 'cape', ears: 'ears', gallery: 'galleryTexture' } as const;

/** The texture intake (see the top of this file). */
export class TextureIntake {
  private readonly blocklist: Blocklist;

  constructor(private readonly context: IntakeContext) {
    this.blocklist = new Blocklist(context.db);
  }

  /** Counts a refusal of an upload of `kind` decided before its file was processed, and returns it to answer. */
  refuse(kind: UploadKind, refusal: Refusal): Refusal {
    this.context.uploads.countUpload(kind, refusal);
    return refusal;
  }

  /**
   * A cape or ears upload, worn by `owner` once it passed (its wardrobe item named `name`, when given); counted under
   * its slot.
   */
  async upload(
    slot: PlayerSlot,
    file: Buffer,
    owner: string,
    name: string | null = null,
  ): Promise<WornUpload | Refused> {
    return this.counted(slot, async () => {
      const processed = await this.process(slot, file, owner);
      if ('refusal' in processed) return processed;
      const refused = await setPlayerTextures(this.context, owner, slot, {
        textures: processed,
        origin: { source: 'upload', name },
      });
      return refused ?? { stillHash: processed.still.hash, notice: processed.notice };
    });
  }

  /** A gallery upload, made the item `addItem` adds once it passed; counted under the gallery. */
  async galleryUpload(file: Buffer, owner: string, addItem: AddItem): Promise<SharedUpload | Refused> {
    return this.counted('gallery', async () => {
      const processed = await this.process('gallery', file, owner);
      if ('refusal' in processed) return processed;
      // An animated item is its animation: keyed by (and storing only) its strip, so a GIF whose first frame matches a
      // still item, or another GIF with the same first frame, is an item of its own.
      const picture = processed.strip ?? processed.still;
      const pointed = await addGalleryItem(this.context, picture, processed.kind === 'ears', owner, addItem);
      if ('refusal' in pointed) return pointed;
      return { hash: picture.hash, created: pointed.created, notice: processed.notice };
    });
  }

  /**
   * A cape a creator draws from `request` as `owner`'s image work; once it passed the blocklist it is stored (its
   * preview beside it), not yet anyone's, until it is worn or shared.
   */
  async make(request: CreationRequest, owner: string): Promise<MadeCape | Refused> {
    const made = await this.context.imageJobs.attempt('creation', request, owner);
    if ('refusal' in made) return made;
    const refusal = await this.blocklist.refusal(made.value);
    if (refusal) return { refusal };
    const { still, strip, preview, notice } = made.value;
    const { library } = this.context;
    await library.put(still, 'creation');
    if (strip) await library.put(strip, 'creation');
    const texture = strip ?? still;
    await library.putDerived(texture.hash, 'preview', preview);
    return { texture, stillHash: still.hash, notice };
  }

  /**
   * Puts a stored texture (a creator's cape, a gallery item, an item of the wardrobe) on `owner`'s slot, checked
   * against the blocklist as an upload is; an animation's strip is worn with its first frame as the still (made from
   * the strip when it is not stored).
   */
  async wear(wear: StoredWear, slot: PlayerSlot, owner: string): Promise<Worn | Refused> {
    const { picture, origin } = wear;
    const refused = await this.checkStored(picture, owner);
    if (refused) return refused;
    const strip = isCapeStrip(picture) ? picture : null;
    const first = strip && !wear.still ? await this.context.imageJobs.attempt('stripStill', strip.bytes, owner) : null;
    if (first && 'refusal' in first) return first;
    const still = first ? first.value : (wear.still ?? picture);
    const pointed = await setPlayerTextures(this.context, owner, slot, { textures: { still, strip }, origin });
    return pointed ?? { stillHash: still.hash };
  }

  /** Shares a creator's stored cape to the gallery as the item `addItem` adds, checked against the blocklist as uploads. */
  async share(texture: EncodedTexture, owner: string, addItem: AddItem): Promise<{ created: boolean } | Refused> {
    const refused = await this.checkStored(texture, owner);
    return refused ?? addGalleryItem(this.context, texture, false, owner, addItem);
  }

  /** Takes a slot of `owner` off: their cape or ears are shown no more. */
  async takeOff(slot: PlayerSlot, owner: string): Promise<void> {
    await setPlayerTextures(this.context, owner, slot, null);
  }

  /**
   * An upload processed by its image work (its header read once here, for the job's cost, and handed to the worker)
   * and checked against the blocklist.
   */
  private async process<K extends keyof typeof UPLOAD_WORK>(
    kind: K,
    file: Buffer,
    owner: string,
  ): Promise<ImageWorkResult<(typeof UPLOAD_WORK)[K]> | Refused> {
    const processed = await this.context.imageJobs.attempt(UPLOAD_WORK[kind], readUpload(file), owner);
    if ('refusal' in processed) return processed;
    const refusal = await this.blocklist.refusal(processed.value);
    return refusal ? { refusal } : (processed.value as ImageWorkResult<(typeof UPLOAD_WORK)[K]>);
  }

  /** The blocklist's refusal of a stored texture, checked as an upload is: by content and by its first frame's look. */
  private async checkStored(texture: EncodedTexture, owner: string): Promise<Refused | null> {
    const probes = await this.context.imageJobs.attempt('perceptualProbes', texture.bytes, owner);
    if ('refusal' in probes) return probes;
    const refusal = await this.blocklist.refusal({ still: texture, strip: null, probes: probes.value });
    return refusal ? { refusal } : null;
  }

  /** Runs an upload's steps and counts what they came to under `kind`. */
  private async counted<T extends object>(kind: UploadKind, take: () => Promise<T | Refused>): Promise<T | Refused> {
    const taken = await take();
    this.context.uploads.countUpload(kind, 'refusal' in taken ? taken.refusal : 'ok');
    return taken;
  }
}
