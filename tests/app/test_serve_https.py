"""`scripts/serve-https.sh`: makes a self-signed certificate with openssl and serves the app over https."""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from app_browser import ROOT, free_port


def test_the_app_is_served_over_https_with_a_certificate_made_locally(tmp_path: Path) -> None:
    port = free_port()
    certs = tmp_path / "certs"
    env = {
        **os.environ,
        "PORT": str(port),
        "RUMMI_CERTS": str(certs),
        "PYTHON": sys.executable,
        "RUMMI_DB": str(tmp_path / "games.sqlite3"),
        "PYTHONPATH": str(ROOT),
    }
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        ["bash", str(ROOT / "scripts" / "serve-https.sh")], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    insecure = ssl.create_default_context()
    insecure.check_hostname = False
    insecure.verify_mode = ssl.CERT_NONE  # the certificate is self-signed: the phone is told to accept it
    try:
        deadline = time.monotonic() + 90
        answer = None
        while answer is None and time.monotonic() < deadline:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                with urllib.request.urlopen(
                    f"https://127.0.0.1:{port}/_stcore/health", context=insecure, timeout=2
                ) as response:
                    answer = response.read()
            except OSError:
                time.sleep(0.5)
        assert answer == b"ok"
        assert (certs / "cert.pem").is_file() and (certs / "key.pem").stat().st_mode & 0o077 == 0
        shown = (tmp_path / "serve.log").read_text()
        assert "Open https://" in shown and f":{port} on the phone" in shown
    finally:
        server.terminate()
        server.wait(timeout=15)
        log.close()
