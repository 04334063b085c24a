#!/usr/bin/env bash
# Install the Debian packages a task needs, only when missing (needs root, as on CI and dev machines).
#   site:  gettext (the build checks every catalog with msgfmt), node/npm (the Play page's Pyodide)
#   test:  that, chromium-headless-shell (Debian's Chromium for the browser tests), a Java
#          runtime (Nu validator)
set -euo pipefail
need=()
command -v msgfmt   >/dev/null 2>&1 || need+=(gettext)
command -v npm      >/dev/null 2>&1 || need+=(npm)
if [ "${1:-test}" != site ]; then
  command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
  command -v java     >/dev/null 2>&1 || need+=(default-jre-headless)
  [ -d /usr/share/fonts/truetype/dejavu ] || need+=(fonts-dejavu-core)
fi
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${need[*]}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
