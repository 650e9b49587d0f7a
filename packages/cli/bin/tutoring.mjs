#!/usr/bin/env node
// `tutoring <command>`: runs the TypeScript entry point through tsx, in this process.
import { register } from 'tsx/esm/api'

register()
await import('../src/main.ts')
