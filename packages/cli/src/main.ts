import { runCli } from './cli'

/** The process around `runCli`: real streams, Ctrl-C ends a `--loop`, the exit status is the answer. */
const stop = new AbortController()
process.once('SIGINT', () => stop.abort())
process.once('SIGTERM', () => stop.abort())
// A reader that goes away (`tutoring help | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  signal: stop.signal,
})
process.exitCode = code
// Everything is closed by now; this only guards against a driver keeping the loop alive.
setTimeout(() => process.exit(code), 3_000).unref()
