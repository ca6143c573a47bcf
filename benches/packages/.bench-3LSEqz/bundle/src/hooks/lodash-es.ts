import { kebabCase } from 'lodash-es';

export default (event: { toolName: string }) => ({ additionalContext: kebabCase(`${event.toolName} Tool Ran`) });
