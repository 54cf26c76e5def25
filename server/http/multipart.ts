// Reads a multipart upload: its text fields and the `file` field, with a hard byte limit; a malformed body reads as
// empty. A body over the limit is not read to its end: it is refused by its Content-Length, or as soon as the file
// passes the limit, and the connection closes after the answer (so nobody can make the server read a gigabyte to refuse
// it).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { z } from 'zod';

/**
 * What a multipart upload carried: its fields, the `file` field's bytes (or 'too-big' past the limit, or null) and the
 * name the browser gave it (null when none), and every file field read, by name.
 */
export interface MultipartUpload {
  fields: Record<string, string>;
  file: Buffer | 'too-big' | null;
  fileName: string | null;
  files: Record<string, Buffer>;
}

const MAX_FIELDS = 5;
const MAX_FIELD_BYTES = 4096;
/** What a multipart body may carry besides the file's bytes: its text fields, part headers and boundaries. */
const MULTIPART_OVERHEAD_BYTES = MAX_FIELDS * MAX_FIELD_BYTES + 16 * 1024;

/**
 * Stops reading a request body and closes the connection once the reply is sent (the rest of the body is never read).
 */
function stopReading(request: FastifyRequest, reply: FastifyReply): void {
  request.raw.unpipe();
  request.raw.pause();
  reply.header('connection', 'close');
}

/** An upload with no file: its text fields so far, and `file` null or 'too-big'. */
function withoutFile(file: null | 'too-big', fields: MultipartUpload['fields'] = {}): MultipartUpload {
  return { fields, file, fileName: null, files: {} };
}

/**
 * Reads the body of a multipart request (files in the named fields, each at most `maxFileBytes`; `file` by default);
 * anything that is not a well-formed multipart body gives no file.
 */
export async function readMultipart(
  request: FastifyRequest,
  reply: FastifyReply,
  maxFileBytes: number,
  fileFields: string[] = ['file'],
): Promise<MultipartUpload> {
  const upload = withoutFile(null);
  if (!request.isMultipart()) return upload;
  if (Number(request.headers['content-length']) > maxFileBytes * fileFields.length + MULTIPART_OVERHEAD_BYTES) {
    stopReading(request, reply);
    return withoutFile('too-big');
  }
  try {
    // One byte over the limit is read, so that a file of exactly the limit passes and a bigger one is seen at once.
    const limits = {
      fileSize: maxFileBytes + 1,
      files: fileFields.length,
      fields: MAX_FIELDS,
      fieldSize: MAX_FIELD_BYTES,
    };
    for await (const part of request.parts({ limits })) {
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        let bytes = 0;
        for await (const chunk of part.file) {
          chunks.push(chunk as Buffer);
          bytes += (chunk as Buffer).length;
          if (bytes > maxFileBytes) {
            stopReading(request, reply);
            return withoutFile('too-big', upload.fields);
          }
        }
        if (fileFields.includes(part.fieldname)) upload.files[part.fieldname] = Buffer.concat(chunks);
        if (part.fieldname === 'file') {
          upload.file = upload.files.file ?? null;
          upload.fileName = part.filename || null;
        }
      } else if (typeof part.value === 'string') {
        upload.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    request.log.info({ err: error }, 'malformed multipart body');
    return withoutFile(null);
  }
  return upload;
}

/**
 * The route schema entries of a multipart call: its fields, for the OpenAPI description only (the handler reads the
 * stream itself, so nothing validates them before it).
 */
export function multipartBody(fields: z.ZodRawShape | z.ZodObject) {
  return {
    consumes: ['multipart/form-data'],
    multipartFields: fields instanceof z.ZodObject ? fields : z.object(fields),
  };
}
