"""Where a webhook may point: https, at addresses on the public internet only (no SSRF).

Checked when a URL is registered and again at every delivery, on the addresses the name
resolves to then; the delivery connects to exactly the address checked, so a name that
resolves elsewhere a moment later (DNS rebinding) cannot turn it inward.
``WEBHOOKS_ALLOW_LOOPBACK`` (tests only) also allows http and 127.0.0.1 / ::1.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class UnsafeURL(ValueError):
    """A URL a webhook may not point at; the message says why."""


_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_COMPATIBLE = ipaddress.ip_network("::/96")


def carried_ipv4(address: Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries to the network, or [] when it carries none.

    A packet to ::ffff:127.0.0.1, ::127.0.0.1, 64:ff9b::7f00:1 (NAT64), 2002:7f00:1:: (6to4)
    or a Teredo address reaches, or is relayed towards, the IPv4 address inside it, so that
    address is the one to judge; Python's own flags judge the IPv6 prefix, which is "global".
    """
    if isinstance(address, ipaddress.IPv4Address):
        return []
    if address.ipv4_mapped is not None:
        return [address.ipv4_mapped]
    if address.teredo is not None:
        # (server, client): the relay talks to the server, the packet ends at the client.
        return list(address.teredo)
    if address.sixtofour is not None:
        return [address.sixtofour]
    # NAT64: both the well-known and the local-use prefix, read in the /96 layout (RFC 6052),
    # the IPv4 address in the last 32 bits.
    if any(address in network for network in _NAT64):
        return [ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)]
    # IPv4-compatible (deprecated, still routed by some stacks); :: and ::1 are IPv6's own.
    if address in _COMPATIBLE and int(address) > 1:
        return [ipaddress.IPv4Address(int(address))]
    return []


def address_allowed(address: Address) -> bool:
    """Whether a webhook may connect to this address: the one rule, at registration and delivery."""
    carried = carried_ipv4(address)
    if carried:
        return all(address_allowed(inner) for inner in carried)
    if address.is_loopback and settings.WEBHOOKS_ALLOW_LOOPBACK:
        return True
    # is_global is False for private, loopback, link-local, shared (100.64/10), reserved and
    # documentation ranges, and the unspecified address.
    return address.is_global and not address.is_multicast


def _shown(address: Address) -> str:
    carried = carried_ipv4(address)
    return f"{address} (carrying {', '.join(map(str, carried))})" if carried else str(address)


def target(url: str) -> tuple[str, int, list[Address]]:
    """The host, port and vetted addresses of a webhook URL, or UnsafeURL."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise UnsafeURL(f"is not a URL: {error}") from None
    schemes = ("https", "http") if settings.WEBHOOKS_ALLOW_LOOPBACK else ("https",)
    if parts.scheme not in schemes:
        raise UnsafeURL("must be an https:// URL")
    if not parts.hostname:
        raise UnsafeURL("has no host")
    if parts.username or parts.password:
        raise UnsafeURL("must not carry a user name or password; the signature authenticates the sender")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise UnsafeURL(f"names a host that does not resolve ({parts.hostname}: {error})") from None
    addresses = sorted({ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos}, key=str)
    refused = [_shown(address) for address in addresses if not address_allowed(address)]
    if refused or not addresses:
        raise UnsafeURL(
            f"resolves to {', '.join(refused) or 'nothing'}: a private, loopback, link-local or reserved "
            "address; webhooks go to the public internet only"
        )
    return parts.hostname, port, addresses
