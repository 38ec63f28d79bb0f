/** A trophy drawn as SVG (the same on every device). */
export function TrophyIcon({ size = 24 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M7 3h10v5a5 5 0 0 1-10 0V3Z" fill="#f5b400" />
      <path d="M7 5H4v1.5A3.5 3.5 0 0 0 7.5 10M17 5h3v1.5A3.5 3.5 0 0 1 16.5 10" fill="none" stroke="#b87400" strokeWidth="1.6" />
      <path d="M10.5 13h3v4h-3z" fill="#b87400" />
      <path d="M8 20.5h8v-2a1.5 1.5 0 0 0-1.5-1.5h-5A1.5 1.5 0 0 0 8 18.5v2Z" fill="#5c3a00" />
    </svg>
  );
}
