#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`, run on install by `prepare`).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
