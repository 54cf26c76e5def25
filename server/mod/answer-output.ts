// Writing a mod API answer: the one way both the fast path (a node:http response) and the routes (a Fastify reply)
// send an answer or the 404, so the two give the same status, headers and bytes.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { answerToSend, NOT_FOUND_BODY, NOT_FOUND_HEADER_LIST, type ModAnswer } from './answers.ts';

/**
 * How to write to one kind of response: its status and headers (a flat list: name, value, …), then its body. Kept as
 * two plain functions taking the response, so no object is made per request.
 */
export interface AnswerOutput<Response> {
  head(response: Response, status: number, headers: string[]): void;
  end(response: Response, body: string | Buffer | undefined): void;
}

/** Writing to a node:http response, as the fast path does: the header list goes to writeHead as it is. */
export const NODE_RESPONSE_OUTPUT: AnswerOutput<ServerResponse> = {
  head: (response, status, headers) => void response.writeHead(status, headers),
  end: (response, body) => void response.end(body),
};

/** Writes an answer (304 when the request holds it already, else 200 with its body); returns the status written. */
export function writeAnswer<Response>(
  output: AnswerOutput<Response>,
  response: Response,
  requestHeaders: IncomingHttpHeaders,
  answer: ModAnswer,
): 200 | 304 {
  const { status, headers, body } = answerToSend(requestHeaders, answer);
  output.head(response, status, headers);
  output.end(response, body ?? undefined);
  return status;
}

/** Writes the mod API's 404, the same bytes from the fast path, the routes and nginx. */
export function writeNotFound<Response>(output: AnswerOutput<Response>, response: Response): void {
  output.head(response, 404, NOT_FOUND_HEADER_LIST as string[]);
  output.end(response, NOT_FOUND_BODY);
}
