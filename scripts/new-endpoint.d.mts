/** The scaffold's arguments: `GET <path> --scope <scope> [--like <operationId>] [--operation-id <id>]`. */
export interface EndpointArguments { apiPath: string; scope: string; like?: string; operationId?: string }
export interface EndpointNames {
  area: string; operationId: string; name: string; key: string; file: string; constant: string; pathFile: string; pathParameters: string[];
}
export function parseArguments(argv: string[]): EndpointArguments;
export function endpointNames(apiPath: string, operationId?: string): EndpointNames;
/** The files the scaffold writes and the files it changes (their new text); throws when the operation exists. */
export function planEndpoint(root: string, args: EndpointArguments): { names: EndpointNames; files: Record<string, string>; changed: Record<string, string> };
export function writeEndpoint(root: string, plan: { files: Record<string, string>; changed: Record<string, string> }): void;
