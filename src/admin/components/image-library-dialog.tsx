import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { ConfirmDialog } from '#components/ui/confirm-dialog.tsx';
import { Dialog } from '#components/ui/dialog.tsx';
import { Input } from '#components/ui/input.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { fileSizeMb } from '#lib/format.ts';
import { imageLibraryQuery, useDeleteLibraryImage, type LibraryImage } from '../api/images';

/** Typing settles this long before the library is searched. */
const SEARCH_DELAY_MS = 250;

/**
 * "Choose from library": the images uploaded before, newest first, each with its size and where
 * it is used; found by file name; chosen for the field that opened it, or deleted when nothing uses
 * it (the server refuses otherwise and the message names where it is used).
 */
export function ImageLibraryDialog({
  open,
  onOpenChange,
  fieldLabel,
  accepts,
  onChoose,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The field the image is chosen for, as its picker names it. */
  fieldLabel: string;
  /** Whether the field takes this image's type (the About pictures take PNG and JPG only). */
  accepts: (url: string) => boolean;
  onChoose: (url: string) => void;
}) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(typed.trim());
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const library = useQuery({ ...imageLibraryQuery(query, page), enabled: open });
  const [deleting, setDeleting] = useState<LibraryImage | null>(null);
  const [refused, setRefused] = useState<{ id: number; message: string } | null>(null);
  const remove = useDeleteLibraryImage();

  const data = library.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  // The last image of the last page deleted: show the page before (state derived while rendering).
  if (data && !library.isPlaceholderData && page > pages) setPage(pages);
  let status = 'Loading the library…';
  if (library.isError) status = errorMessage(library.error, 'The library could not be loaded.');
  else if (data && data.total === 0) status = query ? `No uploaded image is named like “${query}”.` : 'No image has been uploaded yet.';
  else if (data) status = `${data.total === 1 ? '1 image' : `${data.total} images`}${pages > 1 ? `, page ${data.page} of ${pages}` : ''}.`;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Choose from library"
      description={`Images uploaded before, newest first. Choose one for the ${fieldLabel.toLowerCase()}.`}
      className="sm:w-[min(56rem,calc(100vw-2rem))]"
    >
      <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-medium text-ink">
        Search by file name
      </label>
      <Input
        id={`${id}-q`}
        type="search"
        autoComplete="off"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
        aria-describedby={`${id}-status`}
      />
      <p id={`${id}-status`} role="status" className="mt-2 text-sm text-muted">
        {status}
      </p>
      {data && data.images.length > 0 && (
        <ul className="mt-3 grid gap-3 sm:grid-cols-2" aria-label="Uploaded images" aria-busy={library.isPlaceholderData || undefined}>
          {data.images.map((image) => (
            <li key={image.id} className="flex min-w-0 gap-3 rounded-md border border-line p-2">
              <img
                src={image.thumbnailUrl}
                alt=""
                loading="lazy"
                width={96}
                height={72}
                className="bg-checkerboard h-18 w-24 shrink-0 rounded object-contain"
              />
              <div className="min-w-0 flex-1 space-y-1 text-sm">
                <p className="font-medium break-all text-ink">{image.name}</p>
                <p className="text-xs text-muted">
                  {[image.width && image.height ? `${image.width} × ${image.height}` : null, fileSizeMb(image.size)]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
                <p className="text-xs text-muted">{image.usedIn.length ? `Used on: ${image.usedIn.join('; ')}` : 'Not used anywhere'}</p>
                {!accepts(image.url) && <p className="text-xs text-muted">This field takes other image types.</p>}
                <div className="flex flex-wrap gap-2 pt-1">
                  {accepts(image.url) && (
                    <Button size="sm" onClick={() => onChoose(image.url)} aria-label={`Use this image: ${image.name}`}>
                      Use this image
                    </Button>
                  )}
                  <Button size="sm" variant="ghost" onClick={() => setDeleting(image)} aria-label={`Delete ${image.name}`}>
                    Delete
                  </Button>
                </div>
                {refused?.id === image.id && (
                  <p role="alert" className="text-sm text-danger">
                    {refused.message}
                  </p>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <nav className="mt-3 flex items-center justify-between gap-2" aria-label="Library pages">
          <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous page
          </Button>
          <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            Next page
          </Button>
        </nav>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete this image?"
        description={`${deleting?.name ?? ''} is deleted from the library. An image still used on the site is kept.`}
        busy={remove.isPending}
        onConfirm={() => {
          const image = deleting;
          if (!image) return;
          setRefused(null);
          remove.mutate(image.id, {
            onError: (err) => setRefused({ id: image.id, message: errorMessage(err, 'The image was not deleted.') }),
            onSettled: () => setDeleting(null),
          });
        }}
      />
    </Dialog>
  );
}
