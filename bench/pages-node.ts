// The pages bench's floor: node:http alone answering each page's URL with the status, headers and bytes the real
// server sent for it (recorded by bench/pages.ts), from memory, with no routing beyond one map look-up. Run by
// bench/pages.ts in a process of its own: PORT and ANSWERS_FILE (JSON: URL → status, the header list as writeHead
// takes it, the body in base64).
import fs from 'node:fs';
import http from 'node:http';

/** One recorded answer as bench/pages.ts writes it. */
interface RecordedAnswer {
  status: number;
  headers: string[];
  body: string;
}

const recorded = JSON.parse(fs.readFileSync(process.env.ANSWERS_FILE!, 'utf8')) as Record<string, RecordedAnswer>;
// The headers stay a flat list built once, the cheapest form writeHead takes (as the real server's fast paths send
// them): the floor is node:http at its best.
const answers = new Map(
  Object.entries(recorded).map(([url, answer]) => [
    url,
    { status: answer.status, headers: answer.headers, body: Buffer.from(answer.body, 'base64') },
  ]),
);

http
  .createServer((request, response) => {
    const answer = answers.get(request.url ?? '');
    if (!answer) return response.writeHead(404).end();
    return response.writeHead(answer.status, answer.headers).end(answer.body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
