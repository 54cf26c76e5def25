#!/usr/bin/env node
// The operator CLI entry point: runs server/cli.ts through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli.ts');
