import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type TouchEvent } from "react";
import { CoinIcon } from "../../components/CoinIcon";

/** Spec section 9: the slider's thumb is 76 px. */
export const THUMB_SIZE_PX = 76;
const TRACK_INSET_PX = 4;
/** Used when the track cannot be measured (not laid out yet). */
const FALLBACK_TRAVEL_PX = 240;
const KEY_STEP = 0.1;

interface SlideToClaimProps {
  label: string;
  /** Screen-reader name of the control. */
  ariaLabel: string;
  disabled: boolean;
  onComplete: () => void;
  /** Changes whenever the thumb must go back to the start (a failed claim), even if `disabled` did not flip. */
  resetSignal?: number;
}

/**
 * Slide to claim: drag the coin to the end (pointer, touch or arrow keys) and release. Released short of the end it
 * springs back; at the end it calls `onComplete` and stays there until the control is enabled again.
 */
export function SlideToClaim({ label, ariaLabel, disabled, onComplete, resetSignal = 0 }: SlideToClaimProps) {
  const track = useRef<HTMLDivElement>(null);
  const [progress, setProgress] = useState(0);
  const [dragging, setDragging] = useState(false);
  const drag = useRef<{ startX: number; travel: number } | null>(null);
  const progressRef = useRef(0);

  const update = useCallback((value: number) => {
    const clamped = Math.min(1, Math.max(0, value));
    progressRef.current = clamped;
    setProgress(clamped);
  }, []);

  // Enabled again, or told to reset (a failed claim): back to the start.
  useEffect(() => {
    if (!disabled) update(0);
  }, [disabled, resetSignal, update]);

  const [travelPx, setTravelPx] = useState(FALLBACK_TRAVEL_PX);
  const travel = () => {
    const width = track.current?.clientWidth ?? 0;
    const measured = width - THUMB_SIZE_PX - TRACK_INSET_PX * 2;
    return measured > 0 ? measured : FALLBACK_TRAVEL_PX;
  };
  useLayoutEffect(() => {
    const element = track.current;
    setTravelPx(travel());
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => setTravelPx(travel()));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const release = useCallback(() => {
    if (!drag.current) return;
    drag.current = null;
    setDragging(false);
    if (progressRef.current >= 1) onComplete();
    else update(0);
  }, [onComplete, update]);

  const begin = (clientX: number) => {
    if (disabled) return;
    drag.current = { startX: clientX - progressRef.current * travel(), travel: travel() };
    setDragging(true);
  };
  const move = useCallback(
    (clientX: number) => {
      if (!drag.current) return;
      update((clientX - drag.current.startX) / drag.current.travel);
    },
    [update],
  );

  useEffect(() => {
    if (!dragging) return;
    const onPointerMove = (event: globalThis.PointerEvent) => {
      if (event.pointerType !== "touch") move(event.clientX);
    };
    const onPointerUp = (event: globalThis.PointerEvent) => {
      if (event.pointerType !== "touch") release();
    };
    window.addEventListener("pointermove", onPointerMove);
    window.addEventListener("pointerup", onPointerUp);
    window.addEventListener("pointercancel", onPointerUp);
    return () => {
      window.removeEventListener("pointermove", onPointerMove);
      window.removeEventListener("pointerup", onPointerUp);
      window.removeEventListener("pointercancel", onPointerUp);
    };
  }, [dragging, move, release]);

  // Touch is handled through touch events (pointer events of type touch are ignored above), so a finger and a
  // mouse never drive the thumb twice.
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === "touch") return;
    event.preventDefault();
    begin(event.clientX);
  };
  const onTouchStart = (event: TouchEvent<HTMLDivElement>) => {
    const touch = event.touches[0];
    if (touch) begin(touch.clientX);
  };
  const onTouchMove = (event: TouchEvent<HTMLDivElement>) => {
    const touch = event.touches[0];
    if (touch) move(touch.clientX);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled) return;
    let next: number | null = null;
    if (event.key === "ArrowRight" || event.key === "ArrowUp") next = progressRef.current + KEY_STEP;
    else if (event.key === "ArrowLeft" || event.key === "ArrowDown") next = progressRef.current - KEY_STEP;
    else if (event.key === "End" || event.key === "Enter" || event.key === " ") next = 1;
    else if (event.key === "Home" || event.key === "Escape") next = 0;
    if (next === null) return;
    event.preventDefault();
    update(next);
    if (next >= 1) onComplete();
  };

  const percent = Math.round(progress * 100);
  return (
    <div className={`slider${disabled ? " slider--disabled" : ""}${dragging ? " slider--dragging" : ""}`} ref={track}>
      <div className="slider__fill" style={{ width: THUMB_SIZE_PX + TRACK_INSET_PX * 2 + progress * travelPx }} />
      <span className="slider__label" style={{ opacity: 1 - progress * 1.4 }}>
        {label}
        <span className="slider__chevrons" aria-hidden="true">›››</span>
      </span>
      <div
        className="slider__thumb"
        role="slider"
        tabIndex={disabled ? -1 : 0}
        aria-label={ariaLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-disabled={disabled}
        style={{
          width: THUMB_SIZE_PX,
          height: THUMB_SIZE_PX,
          transform: `translateX(${progress * travelPx}px)`,
        }}
        onPointerDown={onPointerDown}
        onTouchStart={onTouchStart}
        onTouchMove={onTouchMove}
        onTouchEnd={release}
        onTouchCancel={release}
        onKeyDown={onKeyDown}
      >
        <CoinIcon size={THUMB_SIZE_PX - 12} />
      </div>
    </div>
  );
}
