"""Who is on the other end of a request: the client's address, as far as the site's own
proxies vouch for it.

``X-Forwarded-For`` is written by whoever sends the request, so it is believed only as far
as ``TRUSTED_PROXIES`` (networks, e.g. ``127.0.0.1/32,172.16.0.0/12``) reach: when the
peer (``REMOTE_ADDR``) is one of them, the header's entries are read from the right, the
ones each trusted proxy appended, and the first address that is not a trusted proxy is the
client. Entries further left were written by the client and are never read. By default no
proxy is trusted and the client is ``REMOTE_ADDR``: behind a proxy every visitor then has
the proxy's address, and per-address limits count them all together (docs/runbook.md).
"""

from __future__ import annotations

import ipaddress
from functools import cache

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@cache
def _trusted(
    networks: tuple[str, ...],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(n, strict=False) for n in networks)


def _parse(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _is_trusted(address: Address) -> bool:
    return any(address in net for net in _trusted(tuple(settings.TRUSTED_PROXIES)))


def client_address(request) -> str:
    """The client's address ("" without a request or a peer address)."""
    if request is None:
        return ""
    peer = request.META.get("REMOTE_ADDR", "")
    address = _parse(peer)
    if address is None:
        return peer
    if not _is_trusted(address):
        return str(address)
    hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    for hop in reversed(hops):
        parsed = _parse(hop)
        if parsed is None:  # not what a proxy of ours writes: stop at the last good hop
            break
        address = parsed
        if not _is_trusted(address):
            break
    return str(address)


def client_network(request) -> str:
    """The client's address as a limit counts it: an IPv6 client by its /64, which one
    home or phone gets whole (counting each of its addresses apart would let it use
    billions of them)."""
    address = _parse(client_address(request))
    if address is None:
        return "unknown"
    if address.version == 4:
        return str(address)
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(ipaddress.ip_network(f"{address}/64", strict=False))
