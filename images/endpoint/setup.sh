#!/bin/bash
# Endpoint network setup, as the upstream endpoint contract promises: TX checksum offload off,
# the far side's subnets routed via the sim (.2 / ::2 of the endpoint's own subnets), /logs/qlog.
#
# wirelab runs endpoints WITHOUT NET_ADMIN (only the sim has it): its networks already point the
# endpoints' default routes at the sim (docker's DefaultGatewayIPv4/6 = .2 / ::2), so here we only
# verify that. Where the container does have NET_ADMIN (e.g. under the upstream runner) we set the
# routes and offload like upstream does.
set -u

mkdir -p /logs/qlog

iface=$(ip -o -4 route show default 2>/dev/null | awk '{print $5; exit}')
[ -n "$iface" ] || iface=$(ip -o -4 addr show scope global | awk '{print $2; exit}')
ip4=$(ip -o -4 addr show dev "$iface" scope global | awk '{split($4, a, "/"); print a[1]; exit}')
ip6=$(ip -o -6 addr show dev "$iface" scope global | awk '{split($4, a, "/"); print a[1]; exit}')
sim4=${SIM_IPV4:-${ip4%.*}.2}
sim6=${SIM_IPV6:-${ip6%:*}:2}
echo "setup: interface $iface, IPv4 $ip4 (sim $sim4), IPv6 ${ip6:-none}${ip6:+ (sim $sim6)}"

can_admin() { ip link set dev "$iface" mtu "$(cat "/sys/class/net/$iface/mtu")" 2>/dev/null; }

if ethtool -K "$iface" tx off >/dev/null 2>&1; then
  echo "setup: TX checksum offload off on $iface"
else
  echo "setup: TX checksum offload unchanged (no NET_ADMIN); the sim completes checksums it forwards"
fi

# wirelab's networks make the sim the default gateway; that covers every far subnet.
default_via() { ip "$1" route show default 2>/dev/null | grep -q " via $2 "; }

# Otherwise (upstream-style networks) route the far subnets via the sim, as upstream does:
# upstream's 193.167.0.0/16 + fd00:cafe:cafe::/48 and wirelab's 198.18.0.0/15 + fd00:5717::/32.
status=0
for spec in "-4 $sim4 193.167.0.0/16 198.18.0.0/15" "-6 $sim6 fd00:cafe:cafe::/48 fd00:5717::/32"; do
  set -- $spec
  family=$1 sim=$2
  shift 2
  [ "$family" = -6 ] && [ -z "$ip6" ] && continue
  if default_via "$family" "$sim"; then
    echo "setup: default route ($family) is via the sim $sim"
    continue
  fi
  for net in "$@"; do
    if can_admin && ip "$family" route replace "$net" via "$sim" dev "$iface"; then
      echo "setup: route $net via $sim"
    else
      echo "setup: ERROR: $net is not routed via the sim $sim and this container may not add routes" >&2
      status=1
    fi
  done
done
exit $status
