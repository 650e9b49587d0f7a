export { deleteFile } from './delete-file'
export type { FilesError, PayloadTooLarge, StoreUploadError, UnsupportedMediaType } from './errors'
export { getFile } from './get-file'
export { listFiles } from './list-files'
export { ANONYMOUS_UPLOAD_ALLOWANCE, type MediaCategory, type UploadLimits } from './media-types'
export type {
  ContentSniffer,
  FileRepository,
  FilesDeps,
  FilesRepos,
  IdGenerator,
  MediaProfile,
  MediaRepository,
  MediaSource,
  NewStoredFile,
  ObjectStorage,
  ProfileMediaSlot,
} from './ports'
export { renameFile } from './rename-file'
export { RESOURCE_KINDS, type ResourceKind, resourceLink, type ResourceLink } from './resource-link'
export { type ProfileMediaInput, setProfileMedia, type SetProfileMediaError } from './set-profile-media'
export { admitUpload, type AttachUpload, largestUploadFor, storeUpload, type UploadInput } from './store-upload'
export { FILE_PURPOSES, type FilePurpose, isFilePurpose, type StoredFile } from './stored-file'
