import { addDays, format } from 'date-fns';

export default () => ({ additionalContext: `date-fns ${format(addDays(new Date(2026, 10, 30), 1), 'yyyy-MM-dd')}` });
