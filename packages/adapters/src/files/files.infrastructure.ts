import path from 'node:path'
import type { ObjectStorage, UploadLimits } from '@tutoring/domain/files'
import type { Config } from '../config'
import type { Logger } from '../logger'
import { LocalDiskStorage, createS3Client, s3Storage } from './storage'

type StorageDeps = { baseUrl: string; sign: (path: string, expiresAt: Date) => string; now: () => Date; logger: Logger }

/**
 * S3 when `S3_BUCKET` is set, else the local disk under `DATA_DIR/storage`, whose objects
 * `GET /storage/...` serves (`localDisk`; undefined with S3 or a storage of the caller's).
 */
export function storageFromConfig(
  config: Config,
  deps: StorageDeps,
  override?: ObjectStorage,
): { storage: ObjectStorage; localDisk: LocalDiskStorage | undefined } {
  const localDisk =
    override || config.S3_BUCKET ? undefined : new LocalDiskStorage({ root: path.join(config.DATA_DIR, 'storage'), ...deps })
  return { storage: override ?? localDisk ?? openS3(config, deps.logger), localDisk }
}

/** Credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID and friends). */
function openS3(config: Config, logger: Logger): ObjectStorage {
  const client = createS3Client({ region: config.S3_REGION, endpoint: config.S3_ENDPOINT, logger })
  return s3Storage(client, { bucket: config.S3_BUCKET!, logger })
}

export const uploadLimitsFromConfig = (config: Config): UploadLimits => ({
  image: config.UPLOAD_MAX_IMAGE_BYTES,
  document: config.UPLOAD_MAX_IMAGE_BYTES,
  video: config.UPLOAD_MAX_VIDEO_BYTES,
})
