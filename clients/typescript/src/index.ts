export { ApiError } from './api-error.js';
export { waitSeconds } from './retrying-fetch.js';
export { verifyWebhook, WebhookVerificationError } from './verify-webhook.js';
export { WorkspaceClient } from './workspace-client.js';
export type { DataOf, DownloadPath, ItemOf, JsonPath, ListPath, ParamsOf, ReadPath, WorkspaceClientOptions } from './workspace-client.js';
