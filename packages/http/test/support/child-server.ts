import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
export const SERVER_ENTRY = path.join(ROOT, 'packages/http/src/main.ts')
export const CLI_ENTRY = path.join(ROOT, 'packages/cli/src/main.ts')

export type Finished = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
export type Launched = { child: ChildProcess; finished: Promise<Finished>; output: () => string }

/**
 * Runs a TypeScript entry point in a process of its own, as `pnpm dev` and `pnpm cli` do:
 * workspace packages resolve to their sources (the `source` condition), so no build is needed.
 */
export function launch(entry: string, args: string[], env: Record<string, string>): Launched {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()))
  const finished = new Promise<Finished>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })))
  return { child, finished, output: () => stdout + stderr }
}

/** Starts the server (`PORT=0`) in a process of its own and resolves with its URL once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<Launched & { url: string }> {
  const server = launch(SERVER_ENTRY, [], { ...env, PORT: '0' })
  for (let waited = 0; waited < 120_000; waited += 100) {
    const url = /listening on (http:\/\/[\d.:]+)/.exec(server.output())?.[1]
    if (url) return { ...server, url }
    if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`the server exited: ${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  server.child.kill('SIGKILL')
  throw new Error(`the server did not start: ${server.output()}`)
}

/** Stops a child the test started: SIGTERM, then SIGKILL if it outlives `graceMs`. */
export async function stopProcess(launched: Launched, graceMs = 15_000): Promise<Finished> {
  if (launched.child.exitCode === null && launched.child.signalCode === null) {
    launched.child.kill('SIGTERM')
    const timer = setTimeout(() => launched.child.kill('SIGKILL'), graceMs)
    const finished = await launched.finished
    clearTimeout(timer)
    return finished
  }
  return launched.finished
}
