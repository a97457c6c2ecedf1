import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { OpenApiContract } from '@workspace-read-api/contract-test/openapi-contract.js';

/** The checker's reading of the bundled contract, as `contract-test` builds it, for the tests of what it reads. */
export const contract = new OpenApiContract(loadOpenApiDocument());

/** An operation of the bundled contract, by its id. */
export const op = (id: string) => contract.operation(id)!;
