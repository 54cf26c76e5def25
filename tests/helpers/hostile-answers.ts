// Hostile answers the tests' stand-ins can give in place of a real one: an endless body (1.5 GB, chunked, as fast as
// the reader takes it) and an answer that starts but never finishes.
import type http from 'node:http';

/** How a stand-in misbehaves: an endless body, or headers and then nothing. */
export type HostileAnswer = 'endless' | 'stall';

/** How many bytes an endless answer sends at most before it ends (1.5 GB). */
export const ENDLESS_ANSWER_BYTES = 1.5 * 1024 * 1024 * 1024;

const CHUNK = Buffer.alloc(64 * 1024, 'a');

/** What the stand-in saw of its hostile answers: the bytes it wrote, and how many readers hung up before the end. */
export interface HostileAnswerLog {
  bytesSent: number;
  cutShort: number;
}

/** A fresh log. */
export function hostileAnswerLog(): HostileAnswerLog {
  return { bytesSent: 0, cutShort: 0 };
}

/**
 * Answers 200 with `contentType` and then misbehaves: `endless` writes ENDLESS_ANSWER_BYTES in chunks (no length, so
 * the reader cannot tell its size in advance), `stall` writes the start of a body and then nothing until the reader
 * hangs up.
 */
export function sendHostileAnswer(
  response: http.ServerResponse,
  kind: HostileAnswer,
  contentType: string,
  log: HostileAnswerLog,
): void {
  response.writeHead(200, { 'content-type': contentType });
  let closed = false;
  response.once('close', () => {
    closed = true;
    if (!response.writableFinished) log.cutShort += 1;
  });
  if (kind === 'stall') {
    response.write(contentType.startsWith('image/') ? '\x89PNG' : '{"id":');
    return;
  }
  let sent = 0;
  const pump = () => {
    while (!closed && sent < ENDLESS_ANSWER_BYTES) {
      sent += CHUNK.length;
      log.bytesSent += CHUNK.length;
      if (!response.write(CHUNK)) return void response.once('drain', pump);
    }
    if (!closed) response.end();
  };
  pump();
}
