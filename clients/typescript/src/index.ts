export { WorkspaceClient } from './workspace-client.js';
export type { AdminMethods, AdminMethodsWithMeta, WorkspaceClientOptions } from './workspace-client.js';
export {
  ApiError, AuthenticationError, ConflictError, ConnectionError, NotFoundError, PaymentRequiredError, PermissionError,
  RateLimitError, SecretShownOnceError, TimeoutError, UnavailableError, ValidationError,
} from './errors.js';
export type { ErrorEnvelope } from './errors.js';
export type { RetryInfo } from './transport.js';
export type {
  AdminArgs, AdminDataOf, AdminOperationId, ApiResponse, DataOf, DownloadPath, FieldError, GetArgs, GetPath, ItemOf, JsonPath, LineOf, ListPath, NdjsonPath,
  ParamsOf, RequestOptions, ResponseMeta, Scope, WebhookEvent,
} from './contract-types.js';
export { adminOperations, CONTRACT_VERSION } from './generated/operations.js';
export type { ErrorCode } from './generated/operations.js';
export type { components, operations, paths } from './generated/openapi.js';
