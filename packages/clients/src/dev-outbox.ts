/**
 * The API's development outbox (`GET /api/dev/notifications`, outbox transport outside production): World's stand-in
 * records each reminder it was asked to send. Written once here for the API's route schema, the World App simulator
 * that lists them, and the journeys that read them.
 */

/** One reminder World delivered (in the text of the user's World App language), or one it did not, with World's reason. */
export interface OutboxNotification {
  id: string;
  address: string;
  language: string;
  title: string;
  message: string;
  miniAppPath: string;
  createdAt: string;
  /** World delivered it (in `language`), or did not: `reason` says why. */
  sent: boolean;
  reason: string | null;
}

/** The outbox's answer, newest first. */
export interface OutboxAnswer {
  notifications: OutboxNotification[];
}

/**
 * A reminder as World App shows it to its wallet (the simulator's list, `GET /__simulator/notifications`): `${username}`
 * filled in with the wallet's username (null for an address World App does not know); `shown` is null for one World did
 * not deliver, which shows nothing on the phone.
 */
export interface ShownNotification extends OutboxNotification {
  username: string | null;
  shown: { title: string; message: string } | null;
}
