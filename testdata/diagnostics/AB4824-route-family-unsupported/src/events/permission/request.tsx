// Cursor has no permission-request event.
export const config = { targets: ['claude', 'cursor'] };

export default async function Permission() {
  return null;
}
