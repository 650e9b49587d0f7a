import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { Readable } from 'node:stream'
import type { ObjectStorage } from '@tutoring/domain/files'
import type { Logger } from '../../logger'
import { assertObjectKey } from './object-key'

export type S3Options = {
  bucket: string
  region: string
  /** An S3-compatible server; addressed path-style (`endpoint/bucket/key`), as local servers want. */
  endpoint?: string
  /** Absent: the SDK's standard chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
  logger: Pick<Logger, 'error'>
}

export function createS3Client(options: Omit<S3Options, 'bucket' | 'logger'> & { logger?: Logger }): S3Client {
  return new S3Client({
    region: options.region,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // Checksums only where S3 demands them: S3-compatible servers differ in what else they take.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
}

/** Objects in an S3 bucket; links are presigned GET URLs of the object. */
export function s3Storage(client: S3Client, options: Pick<S3Options, 'bucket' | 'logger'>): ObjectStorage {
  const Bucket = options.bucket
  return {
    async put(key, content, meta) {
      const body = Readable.from(content)
      // The SDK pipes the body without watching it: a failing content would be an uncaught
      // error and a request left waiting for bytes. Watch it here and abort the request.
      const failed = new Promise<never>((_, reject) => body.once('error', reject))
      const abort = new AbortController()
      const command = new PutObjectCommand({
        Bucket,
        Key: assertObjectKey(key),
        Body: body,
        ContentLength: meta.size,
        ContentType: meta.contentType,
      })
      const sent = client.send(command, { abortSignal: abort.signal })
      try {
        await Promise.race([sent, failed])
      } catch (error) {
        abort.abort()
        // Once aborted, the request's own rejection only repeats the failure thrown here.
        await sent.catch(() => undefined)
        throw error
      }
    },
    async signedUrl(key, { expiresInSeconds }) {
      const command = new GetObjectCommand({ Bucket, Key: assertObjectKey(key), ResponseContentDisposition: 'inline' })
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds })
    },
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
      } catch (error) {
        options.logger.error({ err: error, key }, 'could not delete a stored object')
      }
    },
  }
}
