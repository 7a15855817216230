import { parse } from 'parse5';

type Node = { nodeName: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; content?: Node; value?: string };

/** The script elements a browser would see in a page (parsed as HTML, not matched with a pattern). */
export function scriptElements(html: string): { type: string | undefined; src: string | undefined; text: string }[] {
  const found: { type: string | undefined; src: string | undefined; text: string }[] = [];
  const visit = (node: Node) => {
    if (node.nodeName === 'script') {
      const attr = (name: string) => node.attrs?.find((a) => a.name === name)?.value;
      found.push({ type: attr('type'), src: attr('src'), text: (node.childNodes ?? []).map((c) => c.value ?? '').join('') });
    }
    for (const child of node.childNodes ?? []) visit(child);
    if (node.content) visit(node.content);
  };
  visit(parse(html) as unknown as Node);
  return found;
}
