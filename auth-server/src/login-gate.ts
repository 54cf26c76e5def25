// Keeps a joining player in the login state while the site is asked for their code, then disconnects them there, so the game
// shows the message on its "disconnected" screen. minecraft-protocol sends the login success packet right after its
// synchronous beforeLogin hook; the gate holds that packet, and everything written after it, back for good.
// minecraft-protocol is CommonJS and Node finds only some of its names for named imports: use its default export.
import minecraftProtocol, { type ServerClient } from 'minecraft-protocol';
import { plainText, type ChatComponent } from './messages.ts';

/** Called from beforeLogin: holds the player's login success back while `decide` runs, then disconnects them in the login state with its message. */
export async function holdLoginForMessage(client: ServerClient, decide: () => Promise<ChatComponent>): Promise<void> {
  const write = client.write;
  let holding = false;
  client.write = (name: string, params: unknown) => {
    if (holding) return;
    if (name === 'success') {
      holding = true;
      return;
    }
    write.call(client, name, params);
  };
  let gone = false;
  client.once('end', () => {
    gone = true;
  });

  const message = await decide();
  if (gone) return;
  client.write = write;
  // Before 1.20.2, minecraft-protocol moves to the play state as soon as it has (it thinks) sent the success packet.
  const { LOGIN } = minecraftProtocol.states;
  if (client.state !== LOGIN) client.state = LOGIN;
  endWithReason(client, plainText(message), JSON.stringify(message));
}

/** Ends a connection with a login-state disconnect packet carrying a formatted reason (the server's end(reason, fullReason)). */
function endWithReason(client: ServerClient, text: string, reasonJson: string): void {
  (client.end as (reason: string, fullReason: string) => void)(text, reasonJson);
}
