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

// Progress rewrites one line of a terminal; a pipe or a log file gets one line per step. Both
// on stderr, so stdout carries only the answer (and `--json` stays one parseable line).
let progressShown = false
const endProgress = () => {
  if (progressShown) process.stderr.write('\n')
  progressShown = false
}
const code = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => {
    endProgress()
    process.stdout.write(`${line}\n`)
  },
  err: (line) => {
    endProgress()
    process.stderr.write(`${line}\n`)
  },
  progress: process.stderr.isTTY
    ? (text) => {
        process.stderr.write(`\r\x1b[2K${text}`)
        progressShown = true
      }
    : (text) => process.stderr.write(`${text}\n`),
  signal: stop.signal,
})
endProgress()
process.exitCode = code
// Everything is closed by now; this only guards against a driver keeping the loop alive.
setTimeout(() => process.exit(code), 3_000).unref()
