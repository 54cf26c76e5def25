// A local stand-in for the game's player services and an OptiFine-style cape server, speaking their protocols:
// `GET /users/profiles/minecraft/{name}` (profile API: {id, name}, 204/404 when unknown),
// `GET /session/minecraft/profile/{uuid}` (session server: base64 `textures` property with the skin URL),
// `GET /texture/{id}` (skin files, served by the stand-in itself) and `GET /capes/{name}.png` (OptiFine capes, 404 when
// none). It can be told to answer some paths with a hostile answer (an endless body, or one that never finishes).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostileAnswerLog, sendHostileAnswer, type HostileAnswer, type HostileAnswerLog } from './hostile-answers.ts';

/** A player the stand-in knows: their uuid, skin PNG (none: no skin) and OptiFine cape PNG (none: no cape). */
export interface StandInPlayer {
  uuid: string;
  name: string;
  skin?: Buffer;
  optifineCape?: Buffer;
}

/** A running stand-in. */
export interface GameServicesStandIn {
  /** The base URL: MOJANG_API_URL, MOJANG_SESSION_URL and OPTIFINE_CAPES_URL all point here. */
  url: string;
  /** Every request path, in order. */
  requests: string[];
  /** Adds or replaces a player. */
  addPlayer(player: StandInPlayer): void;
  /** Makes every call answer this status (null: answer normally). */
  failWith(status: number | null): void;
  /** Answers the paths that match `paths` (every path by default) with a hostile answer (null: answer normally). */
  misbehave(kind: HostileAnswer | null, paths?: RegExp): void;
  /** What the hostile answers sent so far. */
  hostile: HostileAnswerLog;
  close(): Promise<void>;
}

/** Starts the stand-in on 127.0.0.1 (port 0 unless given). */
export async function startGameServicesStandIn(
  options: { port?: number; players?: StandInPlayer[] } = {},
): Promise<GameServicesStandIn> {
  const players = new Map<string, StandInPlayer>();
  const requests: string[] = [];
  let failure: number | null = null;
  let hostile: { kind: HostileAnswer; paths: RegExp } | null = null;
  const hostileLog = hostileAnswerLog();
  const byName = (name: string) => players.get(name.toLowerCase());
  const byUuid = (uuid: string) => [...players.values()].find((player) => player.uuid === uuid);

  const server = http.createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    requests.push(path);
    const send = (status: number, body?: Buffer | string, type = 'application/json') => {
      response.writeHead(status, body === undefined ? {} : { 'content-type': type });
      response.end(body);
    };
    if (path === '/') return send(200, 'game services stand-in', 'text/plain');
    if (failure !== null) return send(failure, JSON.stringify({ error: 'stand-in failure' }));
    if (hostile?.paths.test(path)) {
      const image = path.startsWith('/texture/') || path.startsWith('/capes/');
      return sendHostileAnswer(response, hostile.kind, image ? 'image/png' : 'application/json', hostileLog);
    }
    let match = /^\/users\/profiles\/minecraft\/([^/]+)$/.exec(path);
    if (match) {
      const player = byName(match[1]!);
      return player
        ? send(200, JSON.stringify({ id: player.uuid, name: player.name }))
        : send(404, JSON.stringify({ errorMessage: 'Not found' }));
    }
    match = /^\/session\/minecraft\/profile\/([0-9a-f]{32})$/.exec(path);
    if (match) {
      const player = byUuid(match[1]!);
      if (!player) return send(204);
      const textures = {
        timestamp: Date.now(),
        profileId: player.uuid,
        profileName: player.name,
        textures: player.skin ? { SKIN: { url: `${url}/texture/${player.uuid}` } } : {},
      };
      const value = Buffer.from(JSON.stringify(textures)).toString('base64');
      return send(
        200,
        JSON.stringify({ id: player.uuid, name: player.name, properties: [{ name: 'textures', value }] }),
      );
    }
    match = /^\/texture\/([0-9a-f]{32})$/.exec(path);
    if (match) {
      const skin = byUuid(match[1]!)?.skin;
      return skin ? send(200, skin, 'image/png') : send(404);
    }
    match = /^\/capes\/([^/]+)\.png$/.exec(path);
    if (match) {
      const cape = byName(match[1]!)?.optifineCape;
      return cape ? send(200, cape, 'image/png') : send(404, 'Not found', 'text/plain');
    }
    send(404, JSON.stringify({ error: 'unknown path' }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const player of options.players ?? []) players.set(player.name.toLowerCase(), player);
  return {
    url,
    requests,
    addPlayer: (player) => players.set(player.name.toLowerCase(), player),
    failWith: (status) => (failure = status),
    misbehave: (kind, paths = /^/) => void (hostile = kind === null ? null : { kind, paths }),
    hostile: hostileLog,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
