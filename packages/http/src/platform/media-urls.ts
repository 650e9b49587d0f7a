/**
 * Where the profile media are served from: `{id}` is the user id (CONTRACT §13). Here rather
 * than with the media routes in files/, because search and tutors, which show these links,
 * may not import files.
 */
export type MediaUrls = { profileImage(userId: number): string; profileVideo(userId: number): string }
export const mediaUrls = (baseUrl: string): MediaUrls => ({
  profileImage: (userId) => `${baseUrl}/api/resources/profile-image/${userId}`,
  profileVideo: (userId) => `${baseUrl}/api/resources/profile-video/${userId}`,
})
