/** An upload's progress, 0 to 100, announced as a progressbar. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full bg-brand-700 transition-[width]" style={{ width: `${value}%` }} />
    </div>
  );
}
