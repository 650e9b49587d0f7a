export { fileTypeSniffer } from './content-sniffer'
export { LocalDiskStorage, LOCAL_STORAGE_ROUTE, type LocalObject } from './local-disk-storage'
export { createS3Client, s3Storage, type S3Options } from './s3-storage'
export { isObjectKey } from './object-key'
