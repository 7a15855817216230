/**
 * An image field in a record's view: a small thumbnail with its alternative text beside it (or
 * that it has none), and the file's address in small print for the owner who needs it.
 */
export function ImageValue(props: {
  url: string;
  alt?: string | null;
  /** Logos: their alternative text is the company name, not stored with them. */
  altless?: boolean;
  /** Shown on a dark background (the logo for dark backgrounds). */
  dark?: boolean;
}) {
  const { url, alt, altless, dark } = props;
  return (
    <span className="flex min-w-0 items-start gap-3">
      <img
        src={url}
        alt=""
        loading="lazy"
        className={`h-16 w-24 shrink-0 rounded border border-line object-contain ${dark ? 'bg-slate-800' : 'bg-surface'}`}
      />
      <span className="min-w-0 space-y-1">
        {!altless && <span className="block">{alt ? `Alt text: ${alt}` : 'No alt text: decorative'}</span>}
        <span className="block text-xs break-all text-muted">{url}</span>
      </span>
    </span>
  );
}
