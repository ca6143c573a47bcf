// A fail-closed route guard that breaks: its failure must block the command, as a fail-closed
// config hook's does.
export const config = { tools: ['shell'], failClosed: true };

export default async function BrokenGuard(): Promise<null> {
  throw new Error('E2E_ROUTE_FAIL_CLOSED the route guard broke');
}
