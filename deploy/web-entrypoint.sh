#!/bin/sh
# The web container's entrypoint: caps how many connections one client address holds open to Caddy, then runs
# Caddy (the image's command) as the user caddy, with no capability left (the container starts as root with only
# NET_ADMIN for the cap and SETUID, SETGID and SETPCAP to give them up: compose's cap_add).
#
# Caddy 2.6 has no such cap, and its timeouts bound one slow connection, not thousands of them from one address.
# The cap is a firewall rule in this container's own network namespace (nftables `ct count`): a connection over
# it is refused with a TCP reset before Caddy sees it. An IPv6 client counts by its /64, as one subscriber holds
# a whole /64. It needs NET_ADMIN (compose's `cap_add`), which is dropped before Caddy starts.
#
#   CONNECTIONS_PER_ADDRESS   open connections one address may hold (default 256: a carrier's NAT puts many
#                             people behind one address); 0 = no cap here, because a load balancer in front caps
#                             them (then every connection comes from that balancer, and a cap here would throttle
#                             everyone together)
set -eu

limit=${CONNECTIONS_PER_ADDRESS:-256}
case "$limit" in
  '' | *[!0-9]*) echo "web: CONNECTIONS_PER_ADDRESS must be a whole number, got \"$limit\"" >&2; exit 64 ;;
esac

if [ "$limit" -gt 0 ]; then
  # Loopback (the healthcheck) is not capped. Replaces the table if the namespace already has it.
  if ! nft -f - <<RULES; then
table inet oro_web
delete table inet oro_web
table inet oro_web {
  set ipv4_clients { type ipv4_addr; size 262144; flags dynamic; }
  set ipv6_clients { type ipv6_addr; size 262144; flags dynamic; }
  chain input {
    type filter hook input priority filter; policy accept;
    iifname "lo" accept
    meta l4proto tcp ct state new add @ipv4_clients { ip saddr ct count over $limit } reject with tcp reset
    meta l4proto tcp ct state new add @ipv6_clients { ip6 saddr & ffff:ffff:ffff:ffff:: ct count over $limit } reject with tcp reset
  }
}
RULES
    echo "web: could not cap connections per address (the container needs cap_add NET_ADMIN, and nftables);" \
      "set CONNECTIONS_PER_ADDRESS=0 only if a load balancer in front caps them" >&2
    exit 1
  fi
  echo "web: at most $limit open connections per client address (IPv6: per /64)"
else
  echo "web: no cap on connections per client address here (CONNECTIONS_PER_ADDRESS=0): the load balancer in front must cap them"
fi

# Caddy needs no capability (port 8080, files it owns): as the user caddy, with an empty bounding set and no new
# privileges, none can come back once it is exec'd.
exec setpriv --reuid=caddy --regid=caddy --init-groups --bounding-set=-all --inh-caps=-all --no-new-privs -- "$@"
