export interface ToolEvent {
  readonly toolName: string;
  readonly toolInput: { readonly command?: string };
}
