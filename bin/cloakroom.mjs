#!/usr/bin/env node
// The operator CLI entry point: runs server/commands/cli.ts through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../server/commands/cli.ts');
