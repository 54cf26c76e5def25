// One setting, written once: its parser with its default (a zod schema) beside its entry in docs/configuration.md.
import type { z } from 'zod';

/** The sections of docs/configuration.md, in their order. */
export const VARIABLE_GROUPS = [
  'Server and storage',
  'Logins and accounts',
  'Apps signed in with a code (device flow)',
  'Mod API and caches',
  'Uploads and image work',
  'Cape creators',
  'Premium and payments',
  'Bot and game auth server keys',
  'HTTP and proxies',
  'Logs, metrics and shutdown',
  'Site (built into the pages)',
  'Tests',
] as const;

/** One section of docs/configuration.md. */
export type VariableGroup = (typeof VARIABLE_GROUPS)[number];

/**
 * A variable's entry: its section, what it does, and its default in words when the schema has none or a number needs a
 * gloss.
 */
export interface VariableDoc {
  group: VariableGroup;
  description: string;
  /**
   * The default as the docs show it; must contain the schema's default when the schema has one. Unset: the schema's
   * default, else "unset".
   */
  default?: string;
}

/**
 * A setting of one section: the schema that reads its environment variable, what it does, and its default in words
 * where needed.
 */
export interface SettingEntry extends Omit<VariableDoc, 'group'> {
  schema: z.ZodType;
}

/** A setting with its section. */
export type Setting<E extends SettingEntry = SettingEntry> = E & { group: VariableGroup };

/** The settings of one section, each given the section. */
export function settingsOf<T extends Record<string, SettingEntry>>(
  group: VariableGroup,
  entries: T,
): { [K in keyof T]: Setting<T[K]> } {
  return Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, { ...entry, group }])) as {
    [K in keyof T]: Setting<T[K]>;
  };
}

/** The schemas of settings, by variable name: the shape of the configuration's zod object. */
export function schemasOf<T extends Record<string, Setting>>(settings: T): { [K in keyof T]: T[K]['schema'] } {
  return Object.fromEntries(Object.entries(settings).map(([name, setting]) => [name, setting.schema])) as {
    [K in keyof T]: T[K]['schema'];
  };
}

/** The docs of settings, by variable name. */
export function docsOf<T extends Record<string, Setting>>(settings: T): Record<keyof T, VariableDoc> {
  return Object.fromEntries(
    Object.entries(settings).map(([name, { group, description, default: shown }]) => [
      name,
      shown === undefined ? { group, description } : { group, description, default: shown },
    ]),
  ) as Record<keyof T, VariableDoc>;
}
