import { z } from '@hono/zod-openapi'
import { FILE_PURPOSES, type MediaProfile, type StoredFile } from '@tutoring/domain/files'

export const FileSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    mime_type: z.string().openapi({ description: 'Read from the content, never from the name or the declared type' }),
    size: z.number().int().openapi({ description: 'Bytes' }),
    created_at: z.string(),
  })
  .openapi('File')

export const presentFile = (file: StoredFile): z.infer<typeof FileSchema> => ({
  id: file.id,
  name: file.name,
  mime_type: file.mimeType,
  size: file.size,
  created_at: file.createdAt.toISOString(),
})

/** Path ids of files are UUIDs; anything else names no file (404). */
export const fileIdParam = z.object({ id: z.string().uuid() })

/** The fields a `POST /api/files` may carry beside `file`. */
export const UploadFields = z.strictObject({ purpose: z.enum(FILE_PURPOSES).optional() })

/** Profile media take the file alone. */
export const NoFields = z.strictObject({})

export const RenameBody = z.strictObject({ name: z.string().max(255).trim().min(1) }).openapi('FileRenameRequest')

/**
 * The documented multipart body. A plain JSON schema rather than zod on purpose: a zod
 * schema would make the router buffer and parse the whole form itself, while
 * `receiveUpload` streams the file to disk.
 */
export function multipartBody(description: string, extra: Record<string, object> = {}) {
  return {
    required: true,
    description,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object' as const,
          required: ['file'],
          properties: { file: { type: 'string' as const, format: 'binary', description: 'The upload; its type is read from its content' }, ...extra },
        },
      },
    },
  }
}

export const ProfileSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  bio: z.string().nullable(),
  teacher_reference_number: z.string().nullable(),
  tutoring_experience_months: z.number().int().nullable(),
  is_visible: z.boolean(),
  profile_picture_url: z.string().nullable().openapi({ description: 'Absolute URL of GET /api/resources/profile-image/{user id}' }),
  profile_video_url: z.string().nullable().openapi({ description: 'Absolute URL of GET /api/resources/profile-video/{user id}' }),
})

export const presentMediaProfile = (profile: MediaProfile, baseUrl: string): z.infer<typeof ProfileSchema> => ({
  id: profile.id,
  user_id: profile.userId,
  bio: profile.bio,
  teacher_reference_number: profile.teacherReferenceNumber,
  tutoring_experience_months: profile.tutoringExperienceMonths,
  is_visible: profile.isVisible,
  profile_picture_url: profile.pictureFileId ? `${baseUrl}/api/resources/profile-image/${profile.userId}` : null,
  profile_video_url: profile.videoFileId ? `${baseUrl}/api/resources/profile-video/${profile.userId}` : null,
})
