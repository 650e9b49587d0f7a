#!/usr/bin/env node
// Cold start to the first `200 /healthz`: starts the command given after `--` (with PORT set),
// polls /healthz every 10 ms, prints the milliseconds, then stops the command. With `--search`
// before `--` it then polls `/api/v1/search` until a tutor is found and prints that time too.
// `node scripts/time-to-healthz.mjs [--search] -- node packages/http/dist/main.js`
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

const command = process.argv.slice(process.argv.indexOf('--') + 1)
if (!process.argv.includes('--') || command.length === 0) {
  console.error('usage: time-to-healthz.mjs [--search] -- COMMAND [ARG ...]')
  process.exit(2)
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
    probe.on('error', reject)
  })

const port = process.env.PORT ?? String(await freePort())
const started = performance.now()
// Its own process group, so pnpm and the node it starts stop together.
const child = spawn(command[0], command.slice(1), { env: { ...process.env, PORT: port }, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
let exited = false
child.on('exit', () => (exited = true))

const deadline = started + 120_000
let up = false
while (!up && !exited && performance.now() < deadline) {
  up = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)
  if (!up) await sleep(10)
}
const elapsed = performance.now() - started
const untilSearch = process.argv.slice(2, process.argv.indexOf('--')).includes('--search')
const found = () =>
  fetch(`http://127.0.0.1:${port}/api/v1/search`).then(
    (r) => (r.ok ? r.json().then((body) => body.data.length > 0) : false),
    () => false,
  )
let searchable
while (up && untilSearch && searchable === undefined && !exited && performance.now() < deadline) {
  if (await found()) searchable = performance.now() - started
  else await sleep(10)
}
if (!exited) process.kill(-child.pid, 'SIGTERM')
await new Promise((resolve) => (exited ? resolve() : child.on('exit', resolve)))
if (!up) {
  console.error(exited ? 'the command ended before /healthz answered' : 'no answer from /healthz within 120 s')
  process.exit(1)
}
console.log(`first /healthz after ${Math.round(elapsed)} ms`)
if (untilSearch) console.log(searchable === undefined ? 'no tutor found by search within 120 s' : `first tutor found by search after ${Math.round(searchable)} ms`)
