import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable, Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import Busboy from '@fastify/busboy'
import type { Context } from 'hono'
import type { z } from 'zod'
import { admitUpload, largestUploadFor, type MediaCategory } from '@tutoring/domain/files'
import type { FieldErrors } from '@tutoring/domain/shared'
import type { Allowance, Services } from '@tutoring/adapters'
import type { AppEnv } from './app-env'
import { problemFromDomain } from './domain-errors'
import { Problem, problems } from './problem'
import { fieldErrorsFrom } from './validation'

/** Room beside the file for the other parts and the multipart framing. */
export const MULTIPART_SLACK_BYTES = 1024 * 1024
const MULTIPART_TYPE = /^multipart\/form-data\s*;/i

/** Uploads wait under `DATA_DIR/uploads` while they are checked and stored. */
export const uploadSpoolDir = (services: Services): string => path.join(services.infra.config.DATA_DIR, 'uploads')

export type ReceivedFile = {
  /** The client's file name ('' when it sent none); never trusted for the type. */
  name: string
  /** The part's Content-Type as the client declared it; never trusted either. */
  declaredType: string
  size: number
  /** The bytes, read from the spool; read at most once. */
  content(): AsyncIterable<Uint8Array>
}

export type ReceivedUpload<Fields> = {
  file: ReceivedFile
  fields: Fields
  /** Removes the spooled bytes; call it in a `finally`. */
  discard(): Promise<void>
}

/**
 * Decides from a file's first bytes whether to go on reading it: a refusal, or the most
 * bytes a file of that type may have.
 */
export type UploadScreen = { headBytes: number; admit(head: Uint8Array): Promise<Problem | number> }

export type UploadOptions<S> = {
  /** The most a file may have before its type is known. */
  maxFileBytes: number
  fields: S
  spoolDir: string
  screen?: UploadScreen
}

/**
 * An upload route's body, for the caller at hand: the file's type is read from its first
 * bytes and refused there (415, or 401 for a type only an account may upload), and its
 * size is capped by what that caller may upload of `accept` (without an account, images
 * only, so 10 MiB), then by the detected type's own limit.
 */
export async function receiveUploadFor<S extends z.ZodType>(
  c: Context<AppEnv>,
  services: Services,
  options: { fields: S; accept: readonly MediaCategory[] },
): Promise<ReceivedUpload<z.output<S>>> {
  const { limits, sniffer } = services.files
  const anonymous = c.get('user') === undefined
  const largest = largestUploadFor(anonymous, options.accept, limits)
  const receive = (maxFileBytes: number) =>
    receiveUpload(c, {
      maxFileBytes,
      fields: options.fields,
      spoolDir: uploadSpoolDir(services),
      screen: {
        headBytes: sniffer.headBytes,
        async admit(head) {
          const admitted = admitUpload({ accepted: options.accept, mimeType: await sniffer.detect(head), anonymous, limits })
          return admitted.isOk() ? Math.min(admitted.value, maxFileBytes) : problemFromDomain(admitted.error)
        },
      },
    })
  return anonymous ? withinAnonymousAllowance(c, services.throttles.anonymousUploads, largest, receive) : receive(largest)
}

/**
 * CONTRACT §15: without an account a client address uploads at most its allowance an hour
 * (20 MiB). An address with nothing left is refused before anything is read; no more than
 * what is left is read; what was received is then taken from the allowance in one piece,
 * so uploads at once from one address can not share the rest twice. Refused: 429 with
 * `Retry-After`, nothing kept.
 */
async function withinAnonymousAllowance<T extends ReceivedUpload<unknown>>(
  c: Context<AppEnv>,
  allowance: Allowance,
  largest: number,
  receive: (maxFileBytes: number) => Promise<T>,
): Promise<T> {
  const key = `addr:${c.get('clientAddress')}`
  const left = await allowance.left(key)
  if (!left.allowed) throw problems.tooManyRequests(left.resetSeconds)
  const upload = await receive(Math.min(largest, left.remaining)).catch((error: unknown) => {
    // Past what is left rather than past the type's own limit: the allowance, not the size, refuses it.
    throw error instanceof Problem && error.status === 413 && left.remaining < largest ? problems.tooManyRequests(left.resetSeconds) : error
  })
  const taken = await allowance.take(key, upload.file.size)
  if (taken.allowed) return upload
  await upload.discard()
  throw problems.tooManyRequests(taken.resetSeconds)
}

/**
 * Reads a `multipart/form-data` upload (CONTRACT §1: the file in the part named `file`,
 * other fields as further parts) without holding it in memory: the file part streams to
 * a temporary file, so fields may come before or after it and the size is known. At most
 * `maxFileBytes` of file and that plus 1 MiB of body are read; more is a 413 at once.
 * With a `screen`, the file's first bytes decide whether reading goes on, and its limit.
 *
 * 400 for a body that is not multipart; 422 for a missing file or a field `fields` (a
 * strict zod object) refuses.
 */
export async function receiveUpload<S extends z.ZodType>(c: Context<AppEnv>, options: UploadOptions<S>): Promise<ReceivedUpload<z.output<S>>> {
  const type = c.req.header('content-type') ?? ''
  const body = c.req.raw.body
  if (!MULTIPART_TYPE.test(type) || !body) {
    throw problems.malformed('Send the upload as multipart/form-data with the file in the part named `file`.')
  }
  const capBytes = options.maxFileBytes + MULTIPART_SLACK_BYTES
  const declaredLength = Number(c.req.header('content-length'))
  if (Number.isFinite(declaredLength) && declaredLength > capBytes) throw tooLarge(options.maxFileBytes)

  await mkdir(options.spoolDir, { recursive: true })
  const spoolPath = path.join(options.spoolDir, randomUUID())
  const discard = () => rm(spoolPath, { force: true })
  try {
    const parsed = await new MultipartReader(spoolPath, options.maxFileBytes, options.screen).read(Readable.fromWeb(body as never), type, capBytes)
    const fields = options.fields.safeParse(parsed.fields)
    const errors: FieldErrors = { ...parsed.problems, ...(fields.success ? {} : fieldErrorsFrom(fields.error)) }
    if (!parsed.file) errors.file = ['is required']
    else if (parsed.file.size === 0) errors.file = ['must not be empty']
    if (Object.keys(errors).length > 0 || !parsed.file || !fields.success) throw problems.validation(errors)
    const file = parsed.file
    return {
      file: { ...file, content: () => readSpool(spoolPath) },
      fields: fields.data,
      discard,
    }
  } catch (error) {
    await discard()
    throw error
  }
}

/**
 * The spooled bytes, opened only when first read. A stream made eagerly opens the file at
 * once, and when the request fails before anyone reads it (a 403 after parsing, say) the
 * spool is removed under it: an 'error' nobody listens to, which takes the process down.
 */
async function* readSpool(spoolPath: string): AsyncIterable<Uint8Array> {
  yield* createReadStream(spoolPath)
}

const tooLarge = (maxFileBytes: number) =>
  problems.payloadTooLarge(`An upload may be at most ${maxFileBytes} bytes here.`)

/**
 * Holds back the file's first `screen.headBytes`, asks the screen about them, then passes
 * everything on, failing with a 413 past the limit the screen gave.
 */
function screened(screen: UploadScreen) {
  return async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    const held: Buffer[] = []
    let heldBytes = 0
    let limit: number | undefined
    let seen = 0
    const decide = async () => {
      const verdict = await screen.admit(Buffer.concat(held))
      if (verdict instanceof Problem) throw verdict
      return verdict
    }
    for await (const chunk of source) {
      seen += chunk.length
      if (limit === undefined) {
        held.push(chunk)
        heldBytes += chunk.length
        if (heldBytes < screen.headBytes) continue
        limit = await decide()
        if (seen > limit) throw tooLarge(limit)
        yield* held
        continue
      }
      if (seen > limit) throw tooLarge(limit)
      yield chunk
    }
    // An empty file is the reader's 422 to give, not a type to refuse.
    if (limit === undefined && heldBytes > 0) {
      limit = await decide()
      if (seen > limit) throw tooLarge(limit)
      yield* held
    }
  }
}

type Parsed = {
  fields: Record<string, string>
  problems: FieldErrors
  file: { name: string; declaredType: string; size: number } | undefined
}

/** One multipart body, parsed once; the first failure wins and stops the reading. */
class MultipartReader {
  private readonly parsed: Parsed = { fields: {}, problems: {}, file: undefined }
  private spooling: Promise<void> = Promise.resolve()
  private fileStream: Readable | undefined
  private spool: WriteStream | undefined
  private source: Readable | undefined
  private settled = false

  constructor(
    private readonly spoolPath: string,
    private readonly maxFileBytes: number,
    private readonly screen: UploadScreen | undefined,
  ) {}

  read(source: Readable, contentType: string, capBytes: number): Promise<Parsed> {
    this.source = source
    return new Promise<Parsed>((resolve, reject) => {
      const fail = (error: unknown) => this.fail(error, reject)
      let parser: ReturnType<typeof Busboy>
      try {
        parser = Busboy({
          headers: { 'content-type': contentType },
          limits: { fileSize: this.maxFileBytes, files: 3, fields: 20, parts: 25, fieldSize: 64 * 1024 },
          // A part named `file` is the file even when the client gave it no file name.
          isPartAFile: (name, _type, fileName) => name === 'file' || fileName !== undefined,
        })
      } catch {
        fail(problems.malformed('The multipart body has no usable boundary.'))
        return
      }
      parser.on('file', (name: string, stream: Readable, fileName: string | undefined, _encoding: string, mimeType: string) =>
        this.onFile(name, stream, fileName, mimeType, fail),
      )
      parser.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => this.onField(name, value, valueTruncated))
      for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit']) {
        parser.on(limit, () => fail(problems.validation({ body: ['has too many parts'] })))
      }
      parser.on('finish', () => {
        this.spooling.then(() => this.measured()).then((parsed) => this.succeed(parsed, resolve), fail)
      })
      pipeline(source, capAt(capBytes, () => tooLarge(this.maxFileBytes)), parser).catch((error: unknown) =>
        fail(error instanceof Problem ? error : problems.malformed('The multipart body could not be read.')),
      )
    })
  }

  private onFile(name: string, stream: Readable, fileName: string | undefined, mimeType: string, fail: (e: unknown) => void) {
    if (name !== 'file' || this.parsed.file) {
      this.parsed.problems[name] = [name === 'file' ? 'must be a single file' : 'is not an accepted field']
      stream.resume()
      return
    }
    this.parsed.file = { name: fileName ?? '', declaredType: mimeType, size: 0 }
    this.fileStream = stream
    stream.on('limit', () => fail(tooLarge(this.maxFileBytes)))
    const spool = createWriteStream(this.spoolPath, { flags: 'wx' })
    this.spool = spool
    this.spooling = this.screen ? pipeline(stream, screened(this.screen), spool) : pipeline(stream, spool)
    this.spooling.catch(fail)
  }

  private onField(name: string, value: string, valueTruncated: boolean) {
    if (valueTruncated) this.parsed.problems[name] = ['is too long']
    else if (Object.hasOwn(this.parsed.fields, name)) this.parsed.problems[name] = ['is given more than once']
    else this.parsed.fields[name] = value
  }

  /** The spool's size is what was received, whatever the client said. */
  private async measured(): Promise<Parsed> {
    if (this.parsed.file) this.parsed.file.size = (await stat(this.spoolPath)).size
    return this.parsed
  }

  private succeed(parsed: Parsed, resolve: (parsed: Parsed) => void) {
    if (this.settled) return
    this.settled = true
    resolve(parsed)
  }

  /**
   * Stops reading and lets the spool writer close before the caller removes its file: a
   * writer destroyed while its file is still being opened creates the file afterwards.
   */
  private fail(error: unknown, reject: (e: unknown) => void) {
    if (this.settled) return
    this.settled = true
    this.fileStream?.destroy()
    this.source?.destroy()
    const spool = this.spool
    const closed = () => (spool && !spool.closed ? new Promise<void>((resolve) => spool.once('close', () => resolve())) : Promise.resolve())
    this.spooling.then(closed, closed).then(() => reject(error))
  }
}

/** Passes bytes through until more than `capBytes` went by, then fails with `tooLarge()`. */
function capAt(capBytes: number, tooLargeProblem: () => Problem): Transform {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length
      if (seen > capBytes) callback(tooLargeProblem())
      else callback(null, chunk)
    },
  })
}
