import { useEffect, useRef, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import type { RenderedMail } from '#shared/email/render.ts';

/**
 * An e-mail as it will be sent: its subject, then the HTML part in a sandboxed frame (no scripts,
 * forms, popups or navigation of the page) or the plain-text part. The caller renders it with the
 * code the server sends with.
 *
 * The frame keeps one document and this component writes each new version into it, rather than
 * loading a new `srcdoc` per keystroke: a reload per keystroke flashes, and a frame of an opaque
 * origin lives in a process of its own that, on a busy machine, was seen to stay blank. Without
 * `allow-scripts` the same origin gives the e-mail nothing: nothing in it can run.
 */
export function MailPreview({
  mail,
  title = 'E-mail preview',
  heightClass = 'h-[32rem]',
}: {
  mail: RenderedMail;
  title?: string;
  heightClass?: string;
}) {
  const [view, setView] = useState<'html' | 'text'>('html');
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const doc = frame.current?.contentDocument;
    if (!doc) return;
    doc.open();
    doc.write(mail.html);
    doc.close();
  }, [mail.html, view]);
  return (
    <section aria-label="Preview" className="min-w-0">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-ink">Preview</h3>
        <div role="group" aria-label="Preview part" className="flex gap-1">
          <Button
            size="sm"
            variant={view === 'html' ? 'primary' : 'secondary'}
            aria-pressed={view === 'html'}
            onClick={() => setView('html')}
          >
            HTML
          </Button>
          <Button
            size="sm"
            variant={view === 'text' ? 'primary' : 'secondary'}
            aria-pressed={view === 'text'}
            onClick={() => setView('text')}
          >
            Plain text
          </Button>
        </div>
      </div>
      <p className="mb-2 text-sm text-muted">
        Subject: <span className="text-ink">{mail.subject}</span>
      </p>
      {view === 'html' ? (
        <iframe
          ref={frame}
          title={title}
          sandbox="allow-same-origin"
          className={`${heightClass} w-full rounded-md border border-line bg-white`}
        />
      ) : (
        <pre className={`${heightClass} overflow-auto rounded-md border border-line bg-surface p-3 text-sm whitespace-pre-wrap`}>
          {mail.text}
        </pre>
      )}
    </section>
  );
}
