# Sourced by scripts/play and scripts/test: make .venv when it is missing, then install the
# project into it (with the extras named in $NEVERYU_EXTRAS, comma-separated). The install is
# skipped when .venv/neveryu-installed holds the hash of pyproject.toml and every extra wanted
# (the project is installed editable: a change to its code needs no new install, a change to its
# dependencies does).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
fi
stamp=".venv/neveryu-installed"
hash="$(sha256sum pyproject.toml | cut -d' ' -f1)"
extras="${NEVERYU_EXTRAS:-}"
read -r done_hash done_extras 2>/dev/null <"$stamp" || true
installed=true
[ "${done_hash:-}" = "$hash" ] || installed=false
for extra in ${extras//,/ }; do
    [[ ",${done_extras:-}," == *",$extra,"* ]] || installed=false
done
if [ "$installed" = false ]; then
    # (The filter hides setuptools' notice, printed for every editable install through a meta
    # path finder, that folders named like the package may shadow it: no folder here is named neveryu.)
    PYTHONWARNINGS="ignore:Editable installation" \
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras:+[$extras]}"
    [ "${done_hash:-}" = "$hash" ] || done_extras=""
    echo "$hash ${done_extras:-}${done_extras:+${extras:+,}}$extras" >"$stamp"
fi
