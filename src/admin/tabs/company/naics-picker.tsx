import { useEffect, useId, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Dialog } from '#components/ui/dialog.tsx';
import { Input } from '#components/ui/input.tsx';
import { loadNaics, naicsTitle, searchNaics, sectorOf, type NaicsEntry } from './naics';

/** At most this many results are listed: typing more narrows them. */
const SHOWN = 50;

/** The 2022 list once it has loaded (it loads when the first NAICS row is shown). */
function useNaicsList(): readonly NaicsEntry[] | null {
  const [list, setList] = useState<readonly NaicsEntry[] | null>(null);
  useEffect(() => {
    let live = true;
    loadNaics().then(
      (l) => live && setList(l),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return list;
}

interface NaicsRowToolsProps {
  /** The row's number, as its fields name it ("NAICS code 2"). */
  rowLabel: string;
  code: string;
  title: string;
  onChoose: (code: string, title: string) => void;
}

/**
 * Under a NAICS row: a button that opens the official 2022 list, and a note when the code is not
 * a 2022 code or its title is not the official one (with a button that puts the official title in).
 */
export function NaicsRowTools({ rowLabel, code, title, onChoose }: NaicsRowToolsProps) {
  const list = useNaicsList();
  const [open, setOpen] = useState(false);
  const trimmed = code.trim();
  const official = list && /^\d{6}$/.test(trimmed) ? naicsTitle(list, trimmed) : undefined;
  // A known code typed into a row with no title yet gets its official title.
  const untitled = !title.trim();
  useEffect(() => {
    if (official && untitled) onChoose(trimmed, official);
  }, [official, untitled, trimmed, onChoose]);
  let note = null;
  if (list && /^\d{6}$/.test(trimmed) && official === undefined) {
    note = <p className="text-sm text-muted">{trimmed} is not a 2022 NAICS code. Find the current code in the official list.</p>;
  } else if (official && official !== title.trim()) {
    note = (
      <p className="text-sm text-muted">
        Official 2022 title: {official}.{' '}
        <Button
          size="sm"
          variant="ghost"
          onClick={() => onChoose(trimmed, official)}
          aria-label={`Use it: the official title for ${rowLabel}`}
        >
          Use it
        </Button>
      </p>
    );
  }
  return (
    <div className="mt-2 space-y-2">
      {note}
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`Find official code for ${rowLabel}`}>
        Find official code
      </Button>
      {open && (
        <NaicsPicker
          list={list}
          initial={title.trim() || trimmed}
          onClose={() => setOpen(false)}
          onChoose={(c, t) => {
            onChoose(c, t);
            setOpen(false);
          }}
        />
      )}
    </div>
  );
}

/** The official 2022 list, searched as one types; choosing a line fills the row's code and title. */
function NaicsPicker({
  list,
  initial,
  onClose,
  onChoose,
}: {
  list: readonly NaicsEntry[] | null;
  initial: string;
  onClose: () => void;
  onChoose: (code: string, title: string) => void;
}) {
  const id = useId();
  const [query, setQuery] = useState(initial);
  const matches = list ? searchNaics(list, query) : [];
  let status: string;
  if (!list) status = 'Loading the 2022 NAICS list…';
  else if (!query.trim()) status = 'Type a code or words from the title.';
  else if (matches.length === 0) status = `No 2022 NAICS code matches “${query.trim()}”.`;
  else if (matches.length > SHOWN) status = `${matches.length} matches: the first ${SHOWN} are listed. Type more to narrow them.`;
  else status = matches.length === 1 ? '1 match.' : `${matches.length} matches.`;
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Find the official NAICS code"
      description="The 2022 NAICS codes and titles, as SAM.gov uses them. Search by code or by words."
    >
      <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-medium text-ink">
        Code or words
      </label>
      <Input
        id={`${id}-q`}
        type="search"
        autoComplete="off"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        aria-describedby={`${id}-status`}
        onKeyDown={(e) => {
          // Enter must not submit the form behind the dialog.
          if (e.key === 'Enter') e.preventDefault();
        }}
      />
      <p id={`${id}-status`} role="status" className="mt-2 text-sm text-muted">
        {status}
      </p>
      {matches.length > 0 && (
        <ul className="mt-2 divide-y divide-line rounded-md border border-line" aria-label="Matching NAICS codes">
          {matches.slice(0, SHOWN).map(([code, title]) => (
            <li key={code}>
              <button
                type="button"
                className="block w-full px-3 py-2 text-left hover:bg-surface focus-visible:bg-surface focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-700"
                onClick={() => onChoose(code, title)}
              >
                <span className="font-semibold text-ink">{code}</span> <span className="text-ink">{title}</span>
                <span className="block text-xs text-muted">{sectorOf(code)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
