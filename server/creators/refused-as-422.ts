// A texture the pipeline refused, answered as a 422 with the refusal's message and reason code.
import { refusalError } from '../http/errors.ts';
import { TextureRejected } from '../textures/pipeline/process.ts';

/** Runs `work`, answering a texture it refused as a 422 with the refusal's message and reason code. */
export async function refusedAs422<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TextureRejected) throw refusalError(422, error);
    throw error;
  }
}
