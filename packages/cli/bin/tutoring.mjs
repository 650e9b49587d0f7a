#!/usr/bin/env node
// `tutoring <command>`: the built CLI (`pnpm build`); `pnpm cli` runs the sources through tsx.
await import('../dist/main.js')
