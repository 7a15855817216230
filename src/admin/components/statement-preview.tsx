import { useEffect, useRef, useState } from 'react';

/** The thumbnail's width in CSS pixels (a US Letter page: 255 × 330). */
const WIDTH = 255;
const HEIGHT = Math.round((WIDTH * 11) / 8.5);

type State = { kind: 'waiting' } | { kind: 'ready'; src: string } | { kind: 'failed' };

/**
 * A thumbnail of the first page of the PDF at `url`, drawn in this browser once the thumbnail's
 * place scrolls into view, and again when `version` changes (after a publish rewrote the file).
 */
export function StatementPreview({ url, version, label }: { url: string; version: string; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  const [state, setState] = useState<State>({ kind: 'waiting' });
  /** The image shown now: let go once a newer one replaces it, or when the thumbnail goes. */
  const shown = useRef('');
  /** The entity tag of the file drawn: a publish that left the PDF as it was is not drawn again. */
  const drawn = useRef<string | null>(null);
  useEffect(() => () => URL.revokeObjectURL(shown.current), []);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setVisible(true);
        observer.disconnect();
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!visible) return;
    let live = true;
    void (async () => {
      try {
        // Revalidated (an ETag makes an unchanged file a 304), so a publish's new file is drawn.
        const res = await fetch(url, { cache: 'no-cache', credentials: 'same-origin' });
        if (!res.ok) throw new Error(String(res.status));
        const tag = res.headers.get('etag');
        if (tag && tag === drawn.current) return;
        const bytes = await res.arrayBuffer();
        const { firstPageImage } = await import('./pdf-page-image');
        const blob = await firstPageImage(bytes, WIDTH);
        if (!live) return;
        const previous = shown.current;
        shown.current = URL.createObjectURL(blob);
        drawn.current = tag;
        setState({ kind: 'ready', src: shown.current });
        if (previous) URL.revokeObjectURL(previous);
      } catch {
        if (live) setState({ kind: 'failed' });
      }
    })();
    return () => {
      live = false;
    };
  }, [visible, url, version]);

  return (
    <div
      ref={box}
      className="flex shrink-0 items-center justify-center overflow-hidden rounded border border-line bg-white shadow-sm"
      style={{ width: WIDTH, height: HEIGHT, maxWidth: '100%' }}
      aria-busy={(visible && state.kind === 'waiting') || undefined}
    >
      {state.kind === 'ready' && <img src={state.src} alt={label} width={WIDTH} height={HEIGHT} className="h-auto max-w-full" />}
      {state.kind === 'waiting' && <span className="text-sm text-muted">Drawing the preview…</span>}
      {state.kind === 'failed' && (
        <span className="p-3 text-center text-sm text-muted">The preview could not be drawn. Open the PDF instead.</span>
      )}
    </div>
  );
}
