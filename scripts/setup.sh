# Shared set-up for scripts/serve and scripts/test: a virtual environment in
# .venv with the project installed in editable mode plus the named extras
# (serve: web, the site; test: test, which pulls every extra the tests need).
setup_python() {
  local extras="$1"
  local python="${PYTHON:-python3}"
  setup_compiler "$python"
  if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
  fi
  .venv/bin/python -m pip install --quiet --upgrade pip
  if [ -n "$extras" ]; then
    .venv/bin/python -m pip install --quiet -e ".[${extras}]"
  else
    .venv/bin/python -m pip install --quiet -e .
  fi
}

# A C compiler and the interpreter's headers, for the compiled kernels (dizhu._moves and
# dizhu.bots._split; dizhu.native).  The build skips them when these are missing (the same code
# then runs in Python, slower), so this only tries to install them (Debian's headers serve
# Debian's Python); tests/test_moves_native.py and test_split_native.py fail if they were not built.
setup_compiler() {
  local python="$1" missing=()
  if ! command -v gcc >/dev/null 2>&1; then missing+=(gcc); fi
  if [ ! -f "$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]; then
    missing+=(python3-dev)
  fi
  if [ "${#missing[@]}" -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
    local sudo=""
    if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
    $sudo apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null || true
  fi
}

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser),
# and CJK fonts so that the Japanese and Chinese screenshots show text, not boxes.
setup_chromium() {
  if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/opentype/noto ]; then
    local sudo=""
    if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  fi
}

# Debian's PostgreSQL server and nginx for the tests of several hosts on one database behind a
# load balancer (the tests start their own throwaway servers on loopback; nothing is configured).
setup_site_services() {
  local missing=()
  if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then missing+=(postgresql); fi
  if [ ! -x /usr/sbin/nginx ]; then missing+=(nginx); fi
  if [ "${#missing[@]}" -gt 0 ]; then
    local sudo=""
    if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    # The packages would start their own PostgreSQL cluster and an nginx on port 80; the tests need
    # neither (they run their own on loopback), and in a container without an init system starting
    # them can fail the install. policy-rc.d answering 101 tells dpkg to start no service.
    local policy=/usr/sbin/policy-rc.d made_policy=""
    if [ ! -e "$policy" ]; then
      printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
      $sudo chmod +x "$policy"
      made_policy=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    if [ -n "$made_policy" ]; then $sudo rm -f "$policy"; fi
  fi
}
