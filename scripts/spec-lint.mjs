// The spec quality gate: structural validation (swagger-cli) and the house lint rules (redocly).
import { runTool } from './run-tool.mjs';

runTool('swagger-cli', ['validate', 'openapi/openapi.yaml']);
runTool('redocly', ['lint', 'openapi/openapi.yaml', '--format', 'stylish']);
