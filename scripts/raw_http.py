"""HTTP/1.1 over a plain loopback socket, for the suites that must send what no client
library sends (scripts/hostile.py, scripts/faults_serve.py). Python 3 standard library
only."""

import socket


def connect(addr, source="127.0.0.1"):
    """A TCP connection to `addr` from the loopback address `source`, Nagle off."""
    sock = socket.create_connection(addr, timeout=10, source_address=(source, 0))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_reply(sock):
    """One HTTP/1.1 reply: (status, headers dict with lower-case names, body bytes);
    (0, {}, b"") when the connection is closed or reset before a whole head."""
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return 0, {}, b""
            data += chunk
    except OSError:
        return 0, {}, b""
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body
