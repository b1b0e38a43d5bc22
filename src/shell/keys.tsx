const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** `$mod+Shift+L` → `Ctrl+Shift+L` (⌘ on a Mac); `g h` → `G then H`, for showing bindings. */
export function formatKeys(binding: string): string[] {
  return binding.split(' ').map((chord) =>
    chord
      .split('+')
      .map((k) => (k === '$mod' ? (isMac ? '⌘' : 'Ctrl') : k.length === 1 ? k.toUpperCase() : k))
      .join('+'),
  );
}

export function KeyHint({ binding }: { binding: string }) {
  return (
    <span className="key-hint">
      {formatKeys(binding).map((chord, i) => (
        <kbd key={i}>{chord}</kbd>
      ))}
    </span>
  );
}
