// Reads a multipart upload: its text fields and the `file` field, with a hard byte limit; a malformed body reads as empty.
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { z } from 'zod';

/** What a multipart upload carried: its fields, and the file's bytes (or 'too-big' past the limit, or null). */
export interface MultipartUpload {
  fields: Record<string, string>;
  file: Buffer | 'too-big' | null;
}

/** Reads the body of a multipart request; anything that is not a well-formed multipart body gives no file. */
export async function readMultipart(request: FastifyRequest, maxFileBytes: number): Promise<MultipartUpload> {
  const upload: MultipartUpload = { fields: {}, file: null };
  if (!request.isMultipart()) return upload;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxFileBytes, files: 1, fields: 5, fieldSize: 4096 } })) {
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        if (part.fieldname === 'file') upload.file = part.file.truncated ? 'too-big' : Buffer.concat(chunks);
      } else if (typeof part.value === 'string') {
        upload.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    request.log.info({ err: error }, 'malformed multipart body');
    return { fields: {}, file: null };
  }
  return upload;
}

/**
 * The route schema entries of a multipart call: its fields, for the OpenAPI description only (the handler reads the
 * stream itself, so nothing validates them before it).
 */
export function multipartBody(fields: z.ZodRawShape | z.ZodObject) {
  return { consumes: ['multipart/form-data'], multipartFields: fields instanceof z.ZodObject ? fields : z.object(fields) };
}
