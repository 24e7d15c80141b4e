/** The Developers page's route components, loaded on demand (src/routes/accountRoutes.tsx). */
export { ApiKeyTab } from './ApiKeyTab';
export { DevelopersLayout } from './DevelopersLayout';
export { WebhookTab } from './WebhookTab';
