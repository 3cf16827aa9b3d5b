# Sourced by scripts/play and scripts/test: make .venv when it is missing, then install the
# project into it (with the extras named in $NEVERYU_EXTRAS, comma-separated) on every run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
fi
# (The filter hides setuptools' notice, printed for every editable install through a meta path
# finder, that folders named like the package may shadow it: no folder here is named neveryu.)
PYTHONWARNINGS="ignore:Editable installation" \
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${NEVERYU_EXTRAS:+[$NEVERYU_EXTRAS]}"
