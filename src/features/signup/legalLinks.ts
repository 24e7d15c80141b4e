/**
 * Where the legal documents live. A self-hosted Cairn serves its operator's own documents, so the
 * addresses are build-time configuration with same-origin defaults.
 */
export const TERMS_OF_SERVICE_URL: string =
  (import.meta.env.VITE_TERMS_OF_SERVICE_URL as string | undefined) ?? '/legal/terms-of-service.html';
export const PRIVACY_POLICY_URL: string =
  (import.meta.env.VITE_PRIVACY_POLICY_URL as string | undefined) ?? '/legal/privacy-policy.html';
