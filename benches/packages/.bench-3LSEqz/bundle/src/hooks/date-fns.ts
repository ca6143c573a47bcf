import { addDays, format } from 'date-fns';

export default (event: { toolName: string }) => ({ additionalContext: `${event.toolName} ${format(addDays(new Date(2026, 10, 30), 1), 'yyyy-MM-dd')}` });
