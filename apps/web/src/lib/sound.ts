/** A short rising coin chime, synthesised (no asset to download). Any failure (autoplay rules, no audio) is ignored. */
export function playClaimSound(): void {
  try {
    const AudioContextClass = window.AudioContext;
    if (typeof AudioContextClass !== "function") return;
    const context = new AudioContextClass();
    const start = context.currentTime;
    [988, 1319, 1568].forEach((frequency, index) => {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = "triangle";
      oscillator.frequency.value = frequency;
      const at = start + index * 0.08;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.35);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.4);
    });
    window.setTimeout(() => void context.close().catch(() => undefined), 1000);
  } catch {
    // Sound is a nicety: a failure never blocks the claim.
  }
}
