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


def _allowed(address: Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback and settings.WEBHOOKS_ALLOW_LOOPBACK:
        return True
    # is_global is False for private, loopback, link-local, shared (100.64/10), reserved and
    # documentation ranges, and the unspecified address.
    return address.is_global and not address.is_multicast


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
    refused = [str(address) for address in addresses if not _allowed(address)]
    if refused or not addresses:
        raise UnsafeURL(
            f"resolves to {', '.join(refused) or 'nothing'}: a private, loopback, link-local or reserved "
            "address; webhooks go to the public internet only"
        )
    return parts.hostname, port, addresses
