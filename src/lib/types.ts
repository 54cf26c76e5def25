// Shapes shared by the browser and the server (SPEC §3).

/** A user's group: its name, emoji and admin flag. */
export interface Group {
  name: string;
  emoji: string;
  admin: boolean;
}

/** The premium features a user owns, or null when none. */
export interface Premium {
  animated: boolean;
  glint: boolean;
  dinnerbone: boolean;
  boost_only: boolean;
}

/** The current user, as `GET /api/user` returns it and local storage keeps it. */
export interface User {
  uuid: string;
  username: string;
  group: Group;
  premium: Premium | null;
}

/** A footer contributor. */
export interface Contributor {
  uuid: string;
  username: string;
}
