interface Element {
  readonly type: string;
  readonly props: { readonly tool?: string; readonly children?: string };
}

export function render(element: Element): string {
  return `<${element.type} tool="${element.props.tool}">${element.props.children}</${element.type}>`;
}
