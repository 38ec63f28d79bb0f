import type { ReactNode } from "react";

/** Line icons drawn as SVG, so they look the same on every device (no emoji font needed). */
interface IconProps {
  size?: number;
  className?: string;
}

function Svg({ size = 24, className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export function FlameIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path
        d="M12 2.5c.6 3.1-1.2 4.9-2.8 6.6C7.7 10.7 6.5 12.4 6.5 15a5.5 5.5 0 0 0 11 0c0-2.3-1-4-2.2-5.3-.2 1.6-1 2.7-2.2 3.2.8-3.7-.3-7.6-1.1-10.4Z"
        fill="#ff8a1f"
      />
      <path d="M12 21a3 3 0 0 1-3-3c0-1.7 1.2-2.7 2.2-3.8.2 1.2.9 1.9 1.7 2.2.1-.7.5-1.3 1-1.7.7.9 1.1 2 1.1 3.3a3 3 0 0 1-3 3Z" fill="#ffd34d" />
    </Svg>
  );
}

export function ShieldIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M12 2.8 4.5 5.6v6c0 4.6 3.2 8.4 7.5 9.6 4.3-1.2 7.5-5 7.5-9.6v-6L12 2.8Z" fill="#dbe3ff" stroke="#1f3fd6" strokeWidth="1.6" strokeLinejoin="round" />
      <path d="m8.8 12.2 2.3 2.3 4.3-4.6" fill="none" stroke="#1f3fd6" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" />
    </Svg>
  );
}

export function GiftIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect x="3.5" y="8.5" width="17" height="4" rx="1.2" fill="#ffd34d" stroke="#b87400" strokeWidth="1.5" />
      <rect x="5" y="12.5" width="14" height="8" rx="1.2" fill="#fff0b3" stroke="#b87400" strokeWidth="1.5" />
      <path d="M12 8.5v12M12 8.5C10.5 5 7 5 7.3 7.2 7.5 8.4 10 8.5 12 8.5Zm0 0c1.5-3.5 5-3.5 4.7-1.3-.2 1.2-2.7 1.3-4.7 1.3Z" fill="none" stroke="#b87400" strokeWidth="1.5" strokeLinejoin="round" />
    </Svg>
  );
}

export function BellIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path
        d="M12 3a6 6 0 0 0-6 6v3.6l-1.6 2.9A1 1 0 0 0 5.3 17h13.4a1 1 0 0 0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6Zm-2.5 15.5a2.5 2.5 0 0 0 5 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.9"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </Svg>
  );
}
