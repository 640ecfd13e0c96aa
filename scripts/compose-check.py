#!/usr/bin/env python3
"""Checks a resolved compose file (the output of `docker-compose config`) against the
code, then prints the relay service's environment as NAME=VALUE lines (for
`tilepost mail-relay --check`). Usage: compose-check.py RESOLVED.yml SRC_DIR"""

import pathlib
import re
import sys
from urllib.parse import urlsplit

import yaml  # python3-yaml, a dependency of Debian's docker-compose


def fail(msg):
    print(f"compose-check: {msg}", file=sys.stderr)
    sys.exit(1)


def env_of(service):
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(e.split("=", 1) for e in env)
    return {k: "" if v is None else str(v) for k, v in env.items()}


def main():
    compose = yaml.safe_load(pathlib.Path(sys.argv[1]).read_text())
    src = pathlib.Path(sys.argv[2])
    read_by_code = set()
    for f in src.rglob("*.rs"):
        read_by_code |= set(re.findall(r'"(TILEPOST_[A-Z0-9_]+)"', f.read_text()))
    services = compose.get("services") or {}
    for name in ("db", "server", "relay", "mailpit"):
        if name not in services:
            fail(f"no service {name!r}")
    server, relay, mailpit = (env_of(services[n]) for n in ("server", "relay", "mailpit"))

    # every TILEPOST_* variable is one the code reads
    for svc in ("server", "relay"):
        for k in env_of(services[svc]):
            if k.startswith("TILEPOST_") and k not in read_by_code:
                fail(f"{svc}: {k} is not read by the code")

    # the relay runs the relay subcommand
    cmd = services["relay"].get("command")
    cmd = cmd.split() if isinstance(cmd, str) else cmd
    if cmd != ["mail-relay"]:
        fail(f"relay: command should be ['mail-relay'], is {cmd!r}")
    main_rs = (src / "main.rs").read_text()
    if "MailRelay" not in main_rs:
        fail("the binary has no mail-relay subcommand")

    # the server posts to the relay, with the relay's secret
    hook = urlsplit(server.get("TILEPOST_EMAIL_WEBHOOK_URL", ""))
    bind = relay.get("TILEPOST_RELAY_BIND", "127.0.0.1:8090")
    bind_host, _, bind_port = bind.rpartition(":")
    if hook.scheme != "http" or hook.hostname != "relay" or str(hook.port) != bind_port:
        fail(f"server: TILEPOST_EMAIL_WEBHOOK_URL {hook.geturl()!r} is not the relay (relay:{bind_port})")
    if bind_host not in ("0.0.0.0", "[::]", "::"):
        fail(f"relay: TILEPOST_RELAY_BIND {bind!r} is not reachable from the server container")
    if hook.path not in ("", "/"):
        fail("server: the relay listens on /")
    if not server.get("TILEPOST_EMAIL_WEBHOOK_SECRET", "").startswith("whsec_"):
        fail("server: TILEPOST_EMAIL_WEBHOOK_SECRET is not a whsec_ secret")
    if server["TILEPOST_EMAIL_WEBHOOK_SECRET"] != relay.get("TILEPOST_EMAIL_WEBHOOK_SECRET"):
        fail("the server and the relay have different TILEPOST_EMAIL_WEBHOOK_SECRET")
    health = " ".join(services["relay"].get("healthcheck", {}).get("test", []))
    if f":{bind_port}/healthz" not in health:
        fail("relay: the health check does not ask the relay's /healthz")

    # the relay sends to Mailpit's SMTP port, in plain SMTP (Mailpit has no TLS here)
    smtp = urlsplit(relay.get("TILEPOST_RELAY_SMTP_URL", ""))
    mp_smtp = mailpit.get("MP_SMTP_BIND_ADDR", "0.0.0.0:1025").rpartition(":")[2]
    if (smtp.scheme, smtp.hostname, str(smtp.port)) != ("smtp", "mailpit", mp_smtp) or smtp.query:
        fail(f"relay: TILEPOST_RELAY_SMTP_URL {smtp.geturl()!r} is not smtp://mailpit:{mp_smtp}")
    if mp_smtp != "1025":
        fail("mailpit: SMTP is expected on 1025")
    image = str(services["mailpit"].get("image", ""))
    if not image.startswith("axllent/mailpit"):
        fail("mailpit: the image is not axllent/mailpit")
    if not re.fullmatch(r"axllent/mailpit:v\d+\.\d+\.\d+", image):
        fail(f"mailpit: the image {image!r} is not pinned to a release (axllent/mailpit:vX.Y.Z)")

    # the relay's record of what it has seen is on a volume (it survives a new container)
    state = relay.get("TILEPOST_RELAY_STATE_DIR")
    if not state:
        fail("relay: TILEPOST_RELAY_STATE_DIR is unset (a restart would forget the requests seen)")
    mounts = [str(v.get("target", "")) if isinstance(v, dict) else str(v).split(":")[1]
              for v in services["relay"].get("volumes", [])]
    if not any(state == m or state.startswith(m.rstrip("/") + "/") for m in mounts):
        fail(f"relay: TILEPOST_RELAY_STATE_DIR {state!r} is not on a volume: {mounts}")
    ui = mailpit.get("MP_UI_BIND_ADDR", "0.0.0.0:8025").rpartition(":")[2]
    published = {
        (str(p.get("published")), str(p.get("target"))) if isinstance(p, dict) else tuple(str(p).split(":")[-2:])
        for p in services["mailpit"].get("ports", [])
    }
    if ("8025", ui) not in published:
        fail(f"mailpit: the UI (port {ui}) is not published on 8025: {published}")

    # the server publishes 8080 and links to it
    if server.get("TILEPOST_PUBLIC_URL") != "http://127.0.0.1:8080":
        fail("server: TILEPOST_PUBLIC_URL should be http://127.0.0.1:8080 (what the ports publish)")

    for k, v in relay.items():
        if k.startswith("TILEPOST_"):
            print(f"{k}={v}")


if __name__ == "__main__":
    main()
