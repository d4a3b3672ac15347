# Shared set-up for scripts/serve and scripts/test: a virtual environment in
# .venv with the project installed in editable mode plus the named extras.
setup_python() {
  local extras="$1"
  local python="${PYTHON:-python3}"
  if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
  fi
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[${extras}]"
}
