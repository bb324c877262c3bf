#!/usr/bin/env node
// The `bytegate` command. The server runs its TypeScript through tsx's loader: no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
