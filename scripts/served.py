"""The served app for the probe scripts: a database made ready with the
binary's own commands (`migrate`, `user add`, `token create`), then `kraal
serve` on a free loopback port, answering /healthz before `start` returns.
The server's warnings and errors go to the script's standard error.
"""
import http.client
import json
import os
import socket
import subprocess
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def prepare(binary, url, admin=None, password="probe-password-2026", referees=()):
    """Migrates the database at `url`; adds an admin (returning an API
    token for it) and referee accounts with `password`."""
    env = dict(os.environ, DATABASE_URL=url)
    subprocess.run([binary, "migrate"], env=env, check=True, stdout=subprocess.DEVNULL)
    for name in referees:
        subprocess.run([binary, "user", "add", name, "--referee"], env=env, check=True,
                       input=f"{password}\n".encode(), stdout=subprocess.DEVNULL)
    if admin is None:
        return None
    subprocess.run([binary, "user", "add", admin, "--admin"], env=env, check=True,
                   input=f"{password}\n".encode(), stdout=subprocess.DEVNULL)
    return subprocess.run([binary, "token", "create", admin], env=env, check=True,
                          capture_output=True).stdout.decode().split()[-1]


def start(binary, url, port=None):
    """`kraal serve` on `url`; returns (process, port) once it answers."""
    port = port or free_port()
    env = dict(os.environ, DATABASE_URL=url)
    server = subprocess.Popen([binary, "serve", "--bind", f"127.0.0.1:{port}"], env=env,
                              stdout=subprocess.DEVNULL)
    for _ in range(400):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/healthz")
            if c.getresponse().status == 200:
                return server, port
        except OSError:
            pass
        time.sleep(0.05)
    server.kill()
    raise SystemExit("the app did not start")


def api(token):
    """A caller of the JSON API with `token`: call(conn, method, path,
    body=None) returns (status, decoded body)."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(conn, method, path, body=None):
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"null")

    return call
