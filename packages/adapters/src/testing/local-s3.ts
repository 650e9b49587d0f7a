import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { CreateBucketCommand } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { createS3Client } from '../files/storage/s3-storage'

export type LocalS3 = {
  endpoint: string
  bucket: string
  region: string
  credentials: { accessKeyId: string; secretAccessKey: string }
  stop(): Promise<void>
}

/**
 * A local S3-compatible server (s3rver, pure JavaScript, no Docker) on a free port of the
 * loopback, with one empty bucket, for tests.
 */
export async function startLocalS3(bucket = 'tutoring-test'): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true })
  storeWholeBodiesOnly(server)
  const { port } = (await server.run()) as unknown as { port: number }
  const endpoint = `http://127.0.0.1:${port}`
  const region = 'eu-west-2'
  // s3rver takes these fixed credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
  const client = createS3Client({ region, endpoint, credentials })
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  client.destroy()
  return {
    endpoint,
    bucket,
    region,
    credentials,
    async stop() {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}

type PutObject = (object: { content: unknown }) => Promise<unknown>

/**
 * S3 stores a PUT only once its whole body arrived. s3rver writes the object file as the
 * body streams in, so an upload aborted midway left a partial object it then served (a
 * failed-put test passed or failed by timing). Here each body is read whole first; an
 * aborted one is never written.
 */
function storeWholeBodiesOnly(server: S3rver): void {
  const store = (server as unknown as { store: { putObject: PutObject } }).store
  const putObject = store.putObject.bind(store)
  store.putObject = async (object) => {
    const { content } = object
    if (!(content instanceof Readable)) return putObject(object)
    const whole = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = []
      content.on('data', (chunk: Buffer) => chunks.push(chunk))
      content.once('error', reject)
      content.once('aborted', () => reject(new Error('upload aborted')))
      content.once('close', () => {
        if (!content.readableEnded) reject(new Error('upload closed before its end'))
      })
      content.once('end', () => resolve(Buffer.concat(chunks)))
    })
    return putObject({ ...object, content: whole })
  }
}
