// Reading a whole request body in the tests' stand-in servers.
import type http from 'node:http';

/** Reads a request's body as text (`latin1` keeps every byte as one character). */
export async function requestBody(request: http.IncomingMessage, encoding: BufferEncoding = 'utf8'): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString(encoding);
}
