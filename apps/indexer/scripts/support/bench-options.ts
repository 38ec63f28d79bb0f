/** The bench's options (see the comment at the top of scripts/bench-backfill.ts). */
export interface Options {
  mints: number;
  humans: number;
  perBlock: number;
  v4Every: number;
  liveSeconds: number;
  livePerBlock: number;
  database: "postgres" | "pglite" | undefined;
  lanes: number | undefined;
  rebuild: boolean;
  smoke: boolean;
  compareKinds: boolean;
  rounds: number | undefined;
}

export function parseOptions(argv: string[]): Options {
  const options: Options = { mints: 1_000_000, humans: 0, perBlock: 100, v4Every: 10, liveSeconds: 0, livePerBlock: 1_000, database: undefined, lanes: undefined, rebuild: false, smoke: false, compareKinds: false, rounds: undefined };
  const integer = (flag: string, raw: string | undefined, min: number): number => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`${flag} takes an integer ≥ ${min}, got "${raw}"`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") continue;
    if (arg === "--mints" || arg === "--events") options.mints = integer(arg, argv[++i], 1);
    else if (arg === "--humans") options.humans = integer(arg, argv[++i], 1);
    else if (arg === "--per-block") options.perBlock = integer(arg, argv[++i], 1);
    else if (arg === "--v4-every") options.v4Every = integer(arg, argv[++i], 0);
    else if (arg === "--live-per-block") options.livePerBlock = integer(arg, argv[++i], 1);
    else if (arg === "--lanes") options.lanes = integer(arg, argv[++i], 1);
    else if (arg === "--rebuild") options.rebuild = true;
    else if (arg === "--compare-kinds") options.compareKinds = true;
    else if (arg === "--rounds") options.rounds = integer(arg, argv[++i], 1);
    else if (arg === "--live") options.liveSeconds = argv[i + 1] !== undefined && /^\d+$/.test(argv[i + 1] ?? "") ? integer(arg, argv[++i], 1) : 60;
    else if (arg === "--database") {
      const value = argv[++i];
      if (value !== "postgres" && value !== "pglite") throw new Error(`--database takes postgres or pglite, got "${value}"`);
      options.database = value;
    } else if (arg === "--smoke") {
      Object.assign(options, { smoke: true, mints: 3_000, humans: 500, perBlock: 50, liveSeconds: 8, livePerBlock: 100, rebuild: true });
    } else throw new Error(`unknown option "${arg}" (see the comment at the top of scripts/bench-backfill.ts)`);
  }
  if (options.rounds !== undefined) {
    if (options.humans === 0) throw new Error("--rounds needs --humans");
    options.mints = options.rounds * options.humans;
  }
  if (options.humans === 0) options.humans = Math.max(1, Math.floor(options.mints / 5));
  if (options.perBlock > options.humans) options.perBlock = options.humans;
  return options;
}
