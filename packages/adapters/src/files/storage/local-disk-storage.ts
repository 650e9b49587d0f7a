import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ObjectStorage } from '@tutoring/domain/files'
import type { Logger } from '../../logger'
import { assertObjectKey, isObjectKey } from './object-key'

/** The path of the service's own object route; its links are signed by the service's key. */
export const LOCAL_STORAGE_ROUTE = '/storage'

export type LocalObject = { contentType: string; size: number; body: Readable }

type Meta = { contentType: string; size: number }

export type LocalDiskOptions = {
  /** `DATA_DIR/storage`: objects under `objects/`, their content type under `meta/`. */
  root: string
  baseUrl: string
  sign(pathAndQuery: string, expiresAt: Date): string
  now(): Date
  logger: Pick<Logger, 'error'>
}

/**
 * The default storage: files on the local disk, served by `GET /storage/{key}` behind a
 * signed link. An object appears only once it is complete (written aside, then renamed).
 */
export class LocalDiskStorage implements ObjectStorage {
  constructor(private readonly options: LocalDiskOptions) {}

  async put(key: string, content: AsyncIterable<Uint8Array>, meta: Meta): Promise<void> {
    const target = this.objectPath(assertObjectKey(key))
    await mkdir(path.dirname(target), { recursive: true })
    await mkdir(path.dirname(this.metaPath(key)), { recursive: true })
    const partial = `${target}.partial-${randomUUID()}`
    try {
      // Opened before the copy starts: a stream opening its file by itself may create it after
      // a failed copy has already removed it, leaving the partial file behind.
      const file = await open(partial, 'wx')
      await pipeline(Readable.from(content), file.createWriteStream())
      await writeFile(this.metaPath(key), JSON.stringify(meta))
      await rename(partial, target)
    } catch (error) {
      await rm(partial, { force: true })
      throw error
    }
  }

  async signedUrl(key: string, options: { expiresInSeconds: number }): Promise<string> {
    const expiresAt = new Date(this.options.now().getTime() + options.expiresInSeconds * 1000)
    return `${this.options.baseUrl}${this.options.sign(`${LOCAL_STORAGE_ROUTE}/${assertObjectKey(key)}`, expiresAt)}`
  }

  async delete(key: string): Promise<void> {
    if (!isObjectKey(key)) return
    try {
      await rm(this.objectPath(key), { force: true })
      await rm(this.metaPath(key), { force: true })
    } catch (error) {
      this.options.logger.error({ err: error, key }, 'could not delete a stored object')
    }
  }

  /** The object and what to serve it as; undefined for a key that holds nothing. */
  async open(key: string): Promise<LocalObject | undefined> {
    if (!isObjectKey(key)) return undefined
    let meta: Meta
    try {
      meta = JSON.parse(await readFile(this.metaPath(key), 'utf8')) as Meta
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
    const body = createReadStream(this.objectPath(key))
    try {
      await new Promise<void>((resolve, reject) => body.once('open', () => resolve()).once('error', reject))
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
    return { contentType: meta.contentType, size: meta.size, body }
  }

  private objectPath(key: string): string {
    return path.join(this.options.root, 'objects', ...key.split('/'))
  }

  private metaPath(key: string): string {
    return `${path.join(this.options.root, 'meta', ...key.split('/'))}.json`
  }
}

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT'
