// Table types for Kysely. Times are milliseconds since the epoch; flags are 0 or 1 (one schema for SQLite and PostgreSQL).
import type { Generated } from 'kysely';

export interface GroupsTable {
  id: number;
  name: string;
  emoji: string;
  admin: number;
}

export interface UsersTable {
  uuid: string;
  username: string;
  username_lower: string;
  group_id: Generated<number>;
  banned: Generated<number>;
  created_at: number;
}

export interface SessionsTable {
  id: string;
  user_uuid: string;
  created_at: number;
  expires_at: number;
}

export interface LoginCodesTable {
  code: string;
  user_uuid: string;
  expires_at: number;
}

/** The whole database, as Kysely sees it. */
export interface Database {
  groups: GroupsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_codes: LoginCodesTable;
}
