/** The screen's main action: disabled and relabelled while its request runs. */
export function PendingButton({
  label,
  pendingLabel,
  pending,
  onClick,
  large = false,
}: {
  label: string;
  pendingLabel: string;
  pending: boolean;
  onClick: () => void;
  large?: boolean;
}) {
  return (
    <button
      type="button"
      className={`button button--primary button--block${large ? " button--large" : ""}`}
      onClick={onClick}
      disabled={pending}
      aria-busy={pending}
    >
      {pending ? pendingLabel : label}
    </button>
  );
}
