# SPDX-License-Identifier: MIT OR Apache-2.0
"""Python's ssl module under openssl/shakerand.cnf (tests/openssl/run.sh).

    python_ssl.py rand TRACE
    python_ssl.py tls TRACE CERT KEY

rand: ssl.RAND_bytes(4096) and prints how many bytes this process's
generate lines in TRACE (the provider's SHAKERAND_OPENSSL_TRACE file) add
up to while it ran.
tls: a TLS 1.3 handshake over 127.0.0.1 (a port the system picks) between
a server and a client in this process, then one record each way; prints
the protocol, the cipher and the bytes this process drew through the
provider during the handshake alone.
Standard library only; run with the python3 whose ssl module links the
OpenSSL under test.
"""

import os
import socket
import ssl
import sys
import threading


def drawn(trace):
    """Bytes this process's generate calls handed out so far, per TRACE."""
    total = 0
    me = str(os.getpid())
    try:
        with open(trace) as f:
            for line in f:
                pid, what, n = line.split()
                if pid == me and what == "generate":
                    total += int(n)
    except FileNotFoundError:
        pass
    return total


def rand(trace):
    before = drawn(trace)
    data = ssl.RAND_bytes(4096)
    assert len(data) == 4096 and len(set(data)) > 200
    print(f"{ssl.OPENSSL_VERSION}: RAND_bytes(4096) drew {drawn(trace) - before} bytes through the provider")


def tls(trace, cert, key):
    server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_ctx.load_cert_chain(cert, key)
    client_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client_ctx.load_verify_locations(cert)
    client_ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    result = {}

    def serve():
        conn, _ = listener.accept()
        with server_ctx.wrap_socket(conn, server_side=True) as tls_conn:
            result["server got"] = tls_conn.recv(5)
            tls_conn.sendall(b"world")

    before = drawn(trace)
    thread = threading.Thread(target=serve)
    thread.start()
    with socket.create_connection(("127.0.0.1", port)) as raw:
        with client_ctx.wrap_socket(raw, server_hostname="localhost") as tls_conn:
            tls_conn.sendall(b"hello")
            reply = tls_conn.recv(5)
            version, cipher = tls_conn.version(), tls_conn.cipher()[0]
    thread.join()
    listener.close()
    assert result["server got"] == b"hello" and reply == b"world", (result, reply)
    print(f"{ssl.OPENSSL_VERSION}: {version} {cipher} on 127.0.0.1:{port}, "
          f"drew {drawn(trace) - before} bytes through the provider")


if __name__ == "__main__":
    if sys.argv[1:2] == ["rand"] and len(sys.argv) == 3:
        rand(sys.argv[2])
    elif sys.argv[1:2] == ["tls"] and len(sys.argv) == 5:
        tls(*sys.argv[2:])
    else:
        sys.exit(__doc__)
