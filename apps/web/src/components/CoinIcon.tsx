/** The ORO coin: a gold disc with a raised rim and the O mark. Decorative unless labelled. */
export function CoinIcon({ size = 64, className, label }: { size?: number; className?: string; label?: string }) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 64 64"
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      <defs>
        <radialGradient id="oro-coin-face" cx="35%" cy="30%" r="75%">
          <stop offset="0" stopColor="#fff3b0" />
          <stop offset="0.45" stopColor="#ffd34d" />
          <stop offset="1" stopColor="#e09b00" />
        </radialGradient>
      </defs>
      <circle cx="32" cy="32" r="31" fill="#b87400" />
      <circle cx="32" cy="32" r="28" fill="url(#oro-coin-face)" />
      <circle cx="32" cy="32" r="21" fill="none" stroke="#c98500" strokeWidth="2" opacity="0.55" />
      <circle cx="32" cy="32" r="11.5" fill="none" stroke="#8a5600" strokeWidth="5.5" />
    </svg>
  );
}
