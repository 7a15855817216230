import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Dialog } from '#components/ui/dialog.tsx';
import { Input } from '#components/ui/input.tsx';
import { loadNaics, naicsTitle, searchNaics, sectorOf, successorsOf, type NaicsEntry } from './naics';

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
  const successors = list && official === undefined ? successorsOf(list, trimmed) : [];
  let note = null;
  if (successors.length > 0) {
    note = (
      <p className="text-sm text-muted">
        {trimmed} is not a 2022 NAICS code. It was retired in 2022; its successor: {successors.map(([c, t]) => `${c} ${t}`).join(' or ')}.
      </p>
    );
  } else if (list && /^\d{6}$/.test(trimmed) && official === undefined) {
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
          initial={successors.length > 0 ? trimmed : title.trim() || trimmed}
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

/**
 * The official 2022 list, searched as one types; a retired 2017 code brings its 2022 successor(s).
 * A combobox: the arrow keys move through the results, Enter takes the highlighted one, a click
 * takes any; choosing a line fills the row's code and title.
 */
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
  /** The highlighted result (none until an arrow key is pressed). */
  const [active, setActive] = useState(-1);
  const listRef = useRef<HTMLUListElement>(null);
  const trimmed = query.trim();
  const successors = list && /^\d{6}$/.test(trimmed) ? successorsOf(list, trimmed) : [];
  const matches = !list ? [] : successors.length > 0 ? successors : searchNaics(list, query);
  const shown = matches.slice(0, SHOWN);
  let status: string;
  if (!list) status = 'Loading the 2022 NAICS list…';
  else if (!trimmed) status = 'Type a code or words from the title.';
  else if (successors.length > 0)
    status = `${trimmed} is a 2017 code, retired in 2022. Its 2022 ${successors.length === 1 ? 'successor is' : 'successors are'} listed.`;
  else if (matches.length === 0) status = `No 2022 NAICS code matches “${trimmed}”.`;
  else if (matches.length > SHOWN) status = `${matches.length} matches: the first ${SHOWN} are listed. Type more to narrow them.`;
  else status = matches.length === 1 ? '1 match.' : `${matches.length} matches.`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const highlighted = active >= 0 && active < shown.length ? active : -1;

  useEffect(() => {
    if (highlighted >= 0) listRef.current?.children[highlighted]?.scrollIntoView({ block: 'nearest' });
  }, [highlighted]);

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Find the official NAICS code"
      description="The 2022 NAICS codes and titles, as SAM.gov uses them. Search by code or by words; a 2017 code finds its 2022 successor."
    >
      <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-medium text-ink">
        Code or words
      </label>
      <Input
        id={`${id}-q`}
        type="search"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown.length > 0}
        aria-controls={`${id}-list`}
        aria-activedescendant={highlighted >= 0 ? optionId(highlighted) : undefined}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(-1);
        }}
        aria-describedby={`${id}-status`}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const last = shown.length - 1;
            setActive(e.key === 'ArrowDown' ? Math.min(highlighted + 1, last) : Math.max(highlighted - 1, 0));
          } else if (e.key === 'Enter') {
            // Enter must not submit the form behind the dialog; it takes the highlighted result.
            e.preventDefault();
            const chosen = shown[highlighted];
            if (chosen) onChoose(chosen[0], chosen[1]);
          }
        }}
      />
      <p id={`${id}-status`} role="status" className="mt-2 text-sm text-muted">
        {status}
      </p>
      <ul
        ref={listRef}
        id={`${id}-list`}
        role="listbox"
        aria-label="Matching NAICS codes"
        className={shown.length > 0 ? 'mt-2 divide-y divide-line rounded-md border border-line' : 'hidden'}
      >
        {shown.map(([code, title], i) => (
          // Options are reached from the search box (aria-activedescendant), as a combobox's are;
          // a click takes one too.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={code}
            id={optionId(i)}
            role="option"
            aria-selected={i === highlighted}
            className="block w-full cursor-pointer px-3 py-2 text-left hover:bg-surface aria-selected:bg-brand-50 aria-selected:outline-2 aria-selected:outline-offset-[-2px] aria-selected:outline-brand-700"
            onClick={() => onChoose(code, title)}
          >
            <span className="font-semibold text-ink">{code}</span> <span className="text-ink">{title}</span>
            <span className="block text-xs text-muted">{sectorOf(code)}</span>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
