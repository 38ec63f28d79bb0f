import { useEffect, useState } from "react";
import { CoinIcon } from "../../components/CoinIcon";
import { COIN_RADII, COIN_RAIN_SPAWN_EVERY_MS, COIN_RAIN_SPAWN_FOR_MS, COIN_RAIN_VISIBLE_MS } from "./timeline";

interface Coin {
  id: number;
  radius: (typeof COIN_RADII)[number];
  left: number;
  durationMs: number;
  spin: number;
}

function makeCoin(id: number): Coin {
  return {
    id,
    radius: COIN_RADII[id % COIN_RADII.length] ?? 24,
    left: Math.random() * 100,
    durationMs: 1400 + Math.random() * 900,
    spin: Math.random() < 0.5 ? -1 : 1,
  };
}

/**
 * The success coin rain: a coin every 80 ms for 3 s (radii 18, 24 and 36 px), over an overlay that stays for 5 s.
 * Coins fall with a CSS transform animation (compositor only), so the rain stays smooth.
 */
export function CoinRain({ startedAt }: { startedAt: number | null }) {
  const [coins, setCoins] = useState<Coin[]>([]);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (startedAt === null) return;
    setVisible(true);
    let next = 0;
    setCoins([makeCoin(next++)]);
    const spawn = window.setInterval(() => {
      if (next * COIN_RAIN_SPAWN_EVERY_MS >= COIN_RAIN_SPAWN_FOR_MS) {
        window.clearInterval(spawn);
        return;
      }
      const coin = makeCoin(next++);
      setCoins((current) => [...current, coin]);
    }, COIN_RAIN_SPAWN_EVERY_MS);
    const hide = window.setTimeout(() => {
      setVisible(false);
      setCoins([]);
    }, COIN_RAIN_VISIBLE_MS);
    return () => {
      window.clearInterval(spawn);
      window.clearTimeout(hide);
    };
  }, [startedAt]);

  if (!visible) return null;
  return (
    <div className="coin-rain" aria-hidden="true" data-testid="coin-rain">
      {coins.map((coin) => (
        <div
          key={coin.id}
          className="coin-rain__coin"
          data-radius={coin.radius}
          style={{
            left: `calc(${coin.left}% - ${coin.radius}px)`,
            width: coin.radius * 2,
            height: coin.radius * 2,
            animationDuration: `${coin.durationMs}ms`,
            ["--spin" as string]: coin.spin,
          }}
        >
          <CoinIcon size={coin.radius * 2} />
        </div>
      ))}
    </div>
  );
}
