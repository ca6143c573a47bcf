import { kebabCase } from 'lodash-es';

export default (event: { toolName: string }) => ({ additionalContext: `lodash-es ${kebabCase(`${event.toolName} Tool Ran`)}` });
