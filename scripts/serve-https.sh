#!/usr/bin/env bash
# Serves the app over https on this computer's network, so a phone at the table can use its camera
# (browsers allow the camera only on https or localhost). The first run makes a self-signed certificate
# with openssl in .certs/ (kept out of git); the phone's browser warns once about it: accept it there.
#
#   scripts/serve-https.sh                  # https://<this computer's address>:8501
#   PORT=8443 scripts/serve-https.sh -- --db /srv/rummi/club.sqlite3
#
# Arguments after `--` go to the app (`--db PATH` picks the database). The app's Game screen shows the
# address to open and its QR code. Only this computer's names and addresses are served (ui/host_guard.py);
# RUMMI_ALLOWED_HOSTS=name1,name2 adds others (a reverse proxy's name). Set a director key on a shared network.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8501}
CERTS=${RUMMI_CERTS:-.certs}
PYTHON=${PYTHON:-.venv/bin/python}
[ -x "$PYTHON" ] || PYTHON=python3
command -v openssl >/dev/null || { echo "serve-https: openssl is needed to make the certificate" >&2; exit 1; }
address=$(hostname -I 2>/dev/null | awk '{print $1}')
address=${address:-127.0.0.1}
mkdir -p "$CERTS"
if [ ! -s "$CERTS/cert.pem" ] || [ ! -s "$CERTS/key.pem" ] || [ "$(cat "$CERTS/address" 2>/dev/null)" != "$address" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 825 -sha256 \
    -keyout "$CERTS/key.pem" -out "$CERTS/cert.pem" -subj "/CN=rummi table assistant" \
    -addext "subjectAltName=IP:$address,IP:127.0.0.1,DNS:localhost" 2>/dev/null
  chmod 600 "$CERTS/key.pem"
  echo "$address" > "$CERTS/address"
fi
echo "Open https://$address:$PORT on the phone (same network) and accept the certificate warning once."
if [ -z "${RUMMI_DIRECTOR_KEY:-}" ] && ! grep -qs '^director_key' .streamlit/secrets.toml && [[ " $* " != *" --director-key "* ]]; then
  echo "No director key is set: only a browser on this computer (localhost) can change scores. On a shared" >&2
  echo "network set one: RUMMI_DIRECTOR_KEY=\$(python3 -c 'import secrets; print(secrets.token_urlsafe())')" >&2
fi
echo "Served under this computer's names and addresses only; others: RUMMI_ALLOWED_HOSTS=name1,name2" >&2
[ "${1:-}" = "--" ] && shift
exec "$PYTHON" -m streamlit run app.py \
  --server.address 0.0.0.0 --server.port "$PORT" \
  --server.sslCertFile "$CERTS/cert.pem" --server.sslKeyFile "$CERTS/key.pem" \
  --browser.gatherUsageStats false -- "$@"
