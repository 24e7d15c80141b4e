/**
 * The operator's outside links (community chat, website, social page). A self-hosted Cairn has
 * no fixed ones, so they are build-time configuration; an unset link is not shown.
 */
function configured(value: unknown): string | null {
  return typeof value === 'string' && /^https?:\/\//.test(value) ? value : null;
}

/** 'Join our Discord' in the avatar menu, and the 418 page's community chat link. */
export const COMMUNITY_URL = configured(import.meta.env.VITE_COMMUNITY_URL);
export const WEBSITE_URL = configured(import.meta.env.VITE_WEBSITE_URL);
export const SOCIAL_URL = configured(import.meta.env.VITE_SOCIAL_URL);
