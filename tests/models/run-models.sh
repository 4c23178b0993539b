#!/bin/sh
# Model-check every Promela model in tests/models (or the given .pml
# files) with spin: spin -a, cc, ./pan.  Prints "PASS: model NAME" or
# "FAIL: model NAME (why)" per model and ends "models: N checked, F
# failed"; exits non-zero when F > 0 or spin is missing.
#
# A model named neg-*.pml is a negative case: the check must find an
# error (assertion violation, invalid end state, non-progress or
# acceptance cycle).  Any other model must verify with "errors: 0".
# Optional directives in the first lines of a model:
#   /* model-check cc: FLAGS */    flags for compiling pan.c
#                                  (default -O2 -DSAFETY)
#   /* model-check run: FLAGS */   flags for ./pan (default -m1000000)
#
# Usage: run-models.sh [-w WORKDIR] [MODEL.pml...]
# Environment: SPIN (default spin), CC (default cc), MODEL_TIMEOUT
# (seconds per model, default 300), MODEL_MEMO (a directory: a model
# that passed is remembered there, keyed by everything its result
# depends on -- its text, the .pmlh files beside it, its directives,
# spin's and the compiler's versions, the timeout and this script -- and
# a later run with the same key prints its PASS line again, marked
# "verified before", without checking it again; a failure is never
# remembered).
here=$(cd "$(dirname "$0")" && pwd)
work=
if test "$1" = -w; then
  work=$2
  shift 2
fi
test -n "$work" || work=$(mktemp -d "${TMPDIR:-/tmp}/models-XXXXXX") || exit 1
spin=${SPIN:-spin}
cc=${CC:-cc}
limit=${MODEL_TIMEOUT:-300}
if ! command -v "$spin" > /dev/null 2>&1; then
  echo "run-models: $spin not found (apt-get install spin)" >&2
  exit 2
fi
test $# -gt 0 || set -- "$here"/*.pml
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
if test -n "$MODEL_MEMO" && ! mkdir -p "$MODEL_MEMO" 2> /dev/null; then
  echo "run-models: cannot create MODEL_MEMO $MODEL_MEMO: remembering nothing" >&2
  MODEL_MEMO=
fi
if test -n "$MODEL_MEMO"; then
  tools=$("$spin" -V 2>&1; "$cc" --version 2>&1 | head -n 1)
fi

# The memory's key for model $1 (with directives $2 and $3): 32 hex
# digits, or nothing when it cannot be made.
memo_key ()
{
  {
    printf 'model %s\ncc %s\nrun %s\nlimit %s\ntools %s\n' \
      "$(basename "$1")" "$2" "$3" "$limit" "$tools"
    cat "$1" "$self"
    for h in "$(dirname "$1")"/*.pmlh; do
      test -f "$h" && { echo "$(basename "$h")"; cat "$h"; }
    done
  } | sha256sum 2> /dev/null | cut -c1-32 | grep -E '^[0-9a-f]{32}$'
}

# The flags of directive KIND ("cc" or "run") in the first 10 lines of
# model $1, or nothing.
directive ()
{
  head -n 10 "$1" | sed -n "s|.*/\\* *model-check $2: *\\(.*[^ ]\\) *\\*/.*|\\1|p" | head -n 1
}

n=0 failed=0
for m in "$@"; do
  test -f "$m" || continue
  name=$(basename "$m" .pml)
  n=$((n + 1))
  d=$work/$name
  rm -rf "$d"; mkdir -p "$d"
  ccflags=$(directive "$m" cc)
  runflags=$(directive "$m" run)
  test -n "$ccflags" || ccflags="-O2 -DSAFETY"
  test -n "$runflags" || runflags="-m1000000"
  case $name in
    neg-*) line="PASS: model $name (counterexample found, as it must be)" ;;
    *) line="PASS: model $name" ;;
  esac
  key=
  test -n "$MODEL_MEMO" && key=$(memo_key "$m" "$ccflags" "$runflags")
  # A hit is an entry that holds exactly the line this model's pass
  # prints.
  if test -n "$key" && test "$(cat "$MODEL_MEMO/$key" 2> /dev/null)" = "$line"
  then
    touch -c "$MODEL_MEMO/$key"
    echo "$line (verified before: same model, tools and script)"
    continue
  fi
  # spin runs cpp on the model: the includes are found beside it.
  cp "$m" "$d/model.pml"
  for h in "$(dirname "$m")"/*.pmlh; do
    test -f "$h" && cp "$h" "$d/"
  done
  why=
  if ! ( cd "$d" && "$spin" -a model.pml ) > "$d/spin.log" 2>&1; then
    why="spin -a failed: $(grep -m1 -i 'error' "$d/spin.log")"
  # shellcheck disable=SC2086
  elif ! ( cd "$d" && "$cc" $ccflags -o pan pan.c ) > "$d/cc.log" 2>&1; then
    why="pan.c does not compile: $(head -n 1 "$d/cc.log")"
  else
    # shellcheck disable=SC2086
    ( cd "$d" && timeout "$limit" ./pan $runflags ) > "$d/pan.log" 2>&1
    st=$?
    errors=$(sed -n 's/.*errors: *\([0-9][0-9]*\).*/\1/p' "$d/pan.log" | tail -n 1)
    if test $st -eq 124; then
      why="pan ran over ${limit}s"
    elif test -z "$errors"; then
      why="pan gave no result (status $st): $(tail -n 1 "$d/pan.log")"
    else
      case $name in
	neg-*)
	  test "$errors" -gt 0 \
	    || why="negative case verified (errors: 0): the check cannot fail" ;;
	*)
	  if test "$errors" -ne 0; then
	    why="errors: $errors: $(grep -m1 -E 'pan:[0-9]*:|violated|invalid end state|cycle' "$d/pan.log")"
	  elif grep -q 'search not completed\|max search depth too small' "$d/pan.log"; then
	    why="search incomplete (raise -m)"
	  fi ;;
      esac
    fi
  fi
  if test -z "$why"; then
    echo "$line"
    if test -n "$key" && tmp=$(mktemp "$MODEL_MEMO/.$key.XXXXXX" 2> /dev/null); then
      echo "$line" > "$tmp" && mv -f "$tmp" "$MODEL_MEMO/$key" || rm -f "$tmp"
    fi
  else
    failed=$((failed + 1))
    echo "FAIL: model $name ($why; logs in $d)"
  fi
done
echo "models: $n checked, $failed failed"
test "$failed" -eq 0
